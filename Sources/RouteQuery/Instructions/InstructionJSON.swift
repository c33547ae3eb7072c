import OffgridCore

/// The batch writer's spelling of the instruction types (see ResponseJSON.swift: the same bytes
/// as `JSONEncoding.string(value, pretty: false)`, keys in sorted order, nil fields left out).
extension VoiceInstruction {
    func writeJSON<Out: JSONSink & ~Copyable>(to out: inout Out) {
        out.raw("{\"announcement\":")
        out.string(announcement)
        out.raw(",\"distanceAlongGeometry\":")
        out.double(distanceAlongGeometry)
        out.raw(",\"ssmlAnnouncement\":")
        out.string(ssmlAnnouncement)
        out.raw("}")
    }
}

extension BannerInstruction {
    func writeJSON<Out: JSONSink & ~Copyable>(to out: inout Out) {
        out.raw("{\"distanceAlongGeometry\":")
        out.double(distanceAlongGeometry)
        out.raw(",\"primary\":")
        primary.writeJSON(to: &out)
        if let secondary { out.raw(",\"secondary\":"); secondary.writeJSON(to: &out) }
        out.raw("}")
    }
}

extension BannerText {
    func writeJSON<Out: JSONSink & ~Copyable>(to out: inout Out) {
        out.raw("{\"components\":")
        writeArray(components, to: &out) { c, out in
            out.raw("{\"text\":")
            out.string(c.text)
            out.raw(",\"type\":")
            out.string(c.type.rawValue)
            out.raw("}")
        }
        if let degrees { out.raw(",\"degrees\":"); out.double(degrees) }
        if let drivingSide { out.raw(",\"driving_side\":"); out.string(drivingSide) }
        if let modifier { out.raw(",\"modifier\":"); out.string(modifier) }
        out.raw(",\"text\":")
        out.string(text)
        if let type { out.raw(",\"type\":"); out.string(type) }
        out.raw("}")
    }
}
