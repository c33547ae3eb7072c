print("tilestore")
