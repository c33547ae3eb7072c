/// OSRM's rule for whether a change of road name is worth a word (`requiresNameAnnounced`),
/// without a suffix table (as its post-processing has none): a name that only gains or loses
/// a tail, or a ref that only grows, shrinks or ends, is the same road to the driver.
enum NameAnnouncement {
    static func required(fromName: String, fromRef: String, toName: String, toRef: String) -> Bool {
        // From nothing to something.
        if fromName.isEmpty && fromRef.isEmpty && !(toName.isEmpty && toRef.isEmpty) { return true }
        let namesAreEmpty = fromName.isEmpty && toName.isEmpty
        let nameIsContained = fromName.hasPrefix(toName) || toName.hasPrefix(fromName)
        // With no suffix table only an empty rest counts as a suffix: equal names.
        let namesAreEqual = fromName == toName || nameIsContained
        let nameIsRemoved = !fromName.isEmpty && toName.isEmpty
        let refsAreEmpty = fromRef.isEmpty && toRef.isEmpty
        let refIsContained = fromRef.isEmpty || toRef.isEmpty || fromRef.contains(toRef) || toRef.contains(fromRef)
        let refIsRemoved = !fromRef.isEmpty && toRef.isEmpty
        let obvious = (namesAreEmpty && refsAreEmpty) || (namesAreEqual && refIsContained)
            || (namesAreEqual && refsAreEmpty) || (refIsContained && nameIsRemoved) || (namesAreEqual && refIsRemoved)
        let needsAnnounce = (fromName.isEmpty && !fromRef.isEmpty && !toName.isEmpty && toRef.isEmpty)
            || (!fromName.isEmpty && fromRef.isEmpty && toName.isEmpty && !toRef.isEmpty)
            || (namesAreEmpty && !refIsContained)
        return !obvious || needsAnnounce
    }

    /// OSRM's `haveSameName` of two steps: both have a name or ref, and going from one to the
    /// other needs no announcement.
    static func same(_ a: RouteStep, _ b: RouteStep) -> Bool {
        guard !(a.name.isEmpty && a.ref.isEmpty), !(b.name.isEmpty && b.ref.isEmpty) else { return false }
        if a.name == b.name && a.ref == b.ref { return true }
        return !required(fromName: a.name, fromRef: a.ref, toName: b.name, toRef: b.ref)
    }
}
