/// The default car profile, identical to `profiles/car.json` (a test keeps the two equal), so
/// the tools work without the file and tests do not depend on the working directory.
extension CarProfile {
    public static let embeddedDefaultJSON = """
    {
      "name": "car",
      "highwaySpeedsKmh": {
        "motorway": 110,
        "motorway_link": 110,
        "trunk": 90,
        "trunk_link": 90,
        "primary": 70,
        "primary_link": 70,
        "secondary": 60,
        "secondary_link": 60,
        "tertiary": 50,
        "tertiary_link": 50,
        "unclassified": 40,
        "residential": 30,
        "living_street": 10,
        "service": 15
      },
      "maxspeedFactor": 1,
      "deniedAccessValues": ["no", "private", "agricultural", "forestry", "emergency", "psv"],
      "nodeDelaysSeconds": {
        "trafficSignals": 2,
        "stop": 2,
        "giveWay": 1
      },
      "turns": {
        "turnPenalty": 7.5,
        "turnBias": 1.075,
        "uTurnPenalty": 20,
        "drivingSide": "right"
      }
    }
    """
}
