import OffgridCore
import ToolSupport

ToolMain.run(RouteGraph.self)
