// TileStore
