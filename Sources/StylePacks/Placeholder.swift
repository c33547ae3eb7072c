// StylePacks
