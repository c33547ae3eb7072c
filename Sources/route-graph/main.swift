import ToolSupport

ToolMain.run(RouteGraph.self)
