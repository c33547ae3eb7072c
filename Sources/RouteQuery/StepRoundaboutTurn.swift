/// OSRM's handling of a roundabout intersection once the steps are built (`handleRoundabouts`,
/// after the trimming of the route's ends): entered and left, it is one `roundabout turn` step,
/// its modifier the turn from the way into the ring to the way out of it; entered and not left
/// (the destination lies on it), a plain `roundabout`.
extension StepBuilder {
    /// Merges every roundabout turn's exit step into it, in place, one pass. The exit step stays
    /// when it changes the mode of travel (onto a ferry), as OSRM keeps it then. `steps` has no
    /// arrival yet.
    func mergeRoundaboutTurns(_ steps: inout [RouteStep]) {
        guard steps.contains(where: { $0.type == .roundaboutTurn }) else { return }
        var kept = 0, i = 0
        while i < steps.count {
            var step = steps[i]
            i += 1
            if step.type == .roundaboutTurn {
                if i < steps.count && steps[i].type.exitsRoundabout {
                    let exit = steps[i]
                    // The turn the whole roundabout amounts to: the bearing driven into it
                    // against the one driven out of it.
                    step.modifier = ManeuverModifier(angle: turnAngle(arriving: step.bearingBefore, leaving: exit.bearingAfter))
                    if exit.isFerry == step.isFerry {
                        step.meters += exit.meters
                        step.seconds += exit.seconds
                        step.points = step.points.lowerBound..<exit.points.upperBound
                        i += 1
                    }
                } else if step.exit == nil {
                    // Not left: there is no turn to say, only the roundabout entered. (One with
                    // an exit was entered and left at one node, `roundaboutTouched`.)
                    step.type = .roundabout
                }
            }
            steps[kept] = step
            kept += 1
        }
        if kept < steps.count { steps.removeLast(steps.count - kept) }
    }
}
