// MapPacks
