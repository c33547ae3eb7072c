print("tilepack-build")
