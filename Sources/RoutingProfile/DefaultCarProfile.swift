/// The default car profile, identical to `profiles/car.json` (a test keeps the two equal), so
/// the tools work without the file and tests do not depend on the working directory.
extension TravelProfile {
    public static let embeddedDefaultJSON = """
    {
      "name": "car",
      "mode": "car",
      "highwaySpeedsKmh": {
        "motorway": 110,
        "motorway_link": 55,
        "trunk": 90,
        "trunk_link": 45,
        "primary": 70,
        "primary_link": 35,
        "secondary": 60,
        "secondary_link": 30,
        "tertiary": 50,
        "tertiary_link": 25,
        "unclassified": 40,
        "residential": 30,
        "living_street": 10,
        "service": 15,
        "winter_road": 20,
        "ice_road": 15
      },
      "otherHighwaySpeedKmh": 10,
      "routeSpeedsKmh": {
        "ferry": 5,
        "shuttle_train": 10
      },
      "maxspeedFactor": 1,
      "allowedAccessValues": ["yes", "motorcar", "motor_vehicle", "vehicle", "permissive", "designated", "hov"],
      "deniedAccessValues": ["no", "agricultural", "forestry", "emergency", "psv", "customers", "private", "delivery",
                             "destination", "taxi", "share_taxi", "minibus", "bus", "foot", "restricted", "military",
                             "official", "emergency_vehicle"],
      "restrictedAccessValues": ["private", "delivery", "destination", "customers"],
      "restrictedAccessPenaltySeconds": 600,
      "passableBarriers": ["cattle_grid", "border_control", "toll_booth", "sally_port", "gate", "lift_gate", "no",
                           "entrance", "height_restrictor"],
      "blockingBarriers": [],
      "vehicle": {
        "heightM": 2.0,
        "widthM": 1.9,
        "lengthM": 4.8,
        "weightKg": 2000
      },
      "surfaceSpeedsKmh": {
        "cement": 80, "compacted": 80, "fine_gravel": 80,
        "paving_stones": 60, "metal": 60, "bricks": 60,
        "grass": 40, "wood": 40, "sett": 40, "grass_paver": 40, "gravel": 40, "unpaved": 40, "ground": 40,
        "dirt": 40, "pebblestone": 40, "tartan": 40,
        "cobblestone": 30, "clay": 30,
        "earth": 20, "stone": 20, "rocky": 20, "sand": 20,
        "mud": 10
      },
      "tracktypeSpeedsKmh": {
        "grade1": 60, "grade2": 40, "grade3": 30, "grade4": 25, "grade5": 20
      },
      "smoothnessSpeedsKmh": {
        "intermediate": 80, "bad": 40, "very_bad": 20, "horrible": 10, "very_horrible": 5, "impassable": 0
      },
      "nodeDelaysSeconds": {
        "trafficSignals": 2,
        "stop": 2,
        "giveWay": 1
      },
      "turns": {
        "turnPenalty": 7.5,
        "turnBias": 1.075,
        "uTurnPenalty": 20,
        "uTurns": "notAtIntersections",
        "drivingSide": "right"
      }
    }
    """
}
