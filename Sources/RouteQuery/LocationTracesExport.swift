// The trace readers live in their own module (LocationTraces); route replay and its callers keep
// seeing `LocationFix` and `LocationTrace` through RouteQuery, as before the move.
@_exported import LocationTraces
