// RoutingTiles
