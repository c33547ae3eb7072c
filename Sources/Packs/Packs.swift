// Packs
