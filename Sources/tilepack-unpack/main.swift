print("tilepack-unpack")
