print("route-graph")
