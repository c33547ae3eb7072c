// TileSources
