// RoutingProfile
