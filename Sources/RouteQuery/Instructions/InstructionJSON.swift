import OffgridCore

/// The batch writer's spelling of the instruction types (see ResponseJSON.swift: the same bytes
/// as `JSONEncoding.string(value, pretty: false)`, keys in sorted order, nil fields left out).
extension VoiceInstruction {
    func writeJSON(to out: inout String) {
        out += "{\"announcement\":"
        JSONWriter.writeString(announcement, to: &out)
        out += ",\"distanceAlongGeometry\":"
        JSONWriter.writeDouble(distanceAlongGeometry, to: &out)
        out += ",\"ssmlAnnouncement\":"
        JSONWriter.writeString(ssmlAnnouncement, to: &out)
        out += "}"
    }
}

extension BannerInstruction {
    func writeJSON(to out: inout String) {
        out += "{\"distanceAlongGeometry\":"
        JSONWriter.writeDouble(distanceAlongGeometry, to: &out)
        out += ",\"primary\":"
        primary.writeJSON(to: &out)
        if let secondary { out += ",\"secondary\":"; secondary.writeJSON(to: &out) }
        out += "}"
    }
}

extension BannerText {
    func writeJSON(to out: inout String) {
        out += "{\"components\":"
        writeArray(components, to: &out) { c, out in
            out += "{\"text\":"
            JSONWriter.writeString(c.text, to: &out)
            out += ",\"type\":"
            JSONWriter.writeString(c.type.rawValue, to: &out)
            out += "}"
        }
        if let degrees { out += ",\"degrees\":"; JSONWriter.writeDouble(degrees, to: &out) }
        if let drivingSide { out += ",\"driving_side\":"; JSONWriter.writeString(drivingSide, to: &out) }
        if let modifier { out += ",\"modifier\":"; JSONWriter.writeString(modifier, to: &out) }
        out += ",\"text\":"
        JSONWriter.writeString(text, to: &out)
        if let type { out += ",\"type\":"; JSONWriter.writeString(type, to: &out) }
        out += "}"
    }
}
