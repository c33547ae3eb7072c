// TileMath
