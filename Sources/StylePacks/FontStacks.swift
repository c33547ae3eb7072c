import OffgridCore

/// Collects the font stacks a style's symbol layers can ask for, from `text-font` values written
/// as plain arrays, legacy functions or expressions, and from `text-font` overrides inside
/// `format` expressions in `text-field`.
///
/// What is recognised (a "stack" is an array of strings, the font names; its key is the names
/// joined by ",", as GL renderers put it in the glyphs URL):
/// - a plain array of strings whose first element is not an expression operator: one stack;
/// - `["literal", [names…]]`;
/// - the outputs of `step` (`["step", input, out0, stop1, out1, …]`), `match`
///   (`["match", input, labels1, out1, …, fallback]` — labels are never taken for stacks), `case`
///   (`["case", cond1, out1, …, fallback]`) and every argument of `coalesce`, recursively;
/// - `let` (its bound values and its body; `var` refers to values already walked), and the value
///   of `array` type assertions;
/// - legacy functions (`{"stops": [[input, stack], …], "default": stack}`): every stop output and
///   the default;
/// - in `text-field`, any `["format", …]` section options `{"text-font": …}`, walked as above.
/// An output that depends on data (`get`, `feature-state`, `concat`, …) cannot be known before
/// rendering: it is reported in `unresolved` and no glyphs are packed for it.
///
/// A symbol layer with a `text-field` and no `text-font` uses the GL default stack,
/// `Open Sans Regular,Arial Unicode MS Regular`.
public struct FontStackCollector {
    public static let defaultStack = ["Open Sans Regular", "Arial Unicode MS Regular"]

    /// Stacks found, as name arrays, in first-seen order, without duplicates.
    public private(set) var stacks: [[String]] = []
    /// One line per layer part that depends on data, e.g. `layer "poi": text-font ["get", "font"]`.
    public private(set) var unresolved: [String] = []

    private var seen: Set<[String]> = []

    public init() {}

    /// Walks every layer of a parsed style.
    public mutating func collect(layers: [JSONValue]) {
        for layer in layers {
            guard case .object = layer else { continue }
            let id = layer["id"]?.stringValue ?? "?"
            let layout = layer["layout"]?.objectValue ?? [:]
            if let font = layout["text-font"] {
                walk(font, layer: id, what: "text-font")
            } else if layout["text-field"] != nil, layer["type"]?.stringValue == "symbol" {
                add(Self.defaultStack)
            }
            if let field = layout["text-field"] {
                walkFormats(field, layer: id)
            }
        }
    }

    /// Walks one `text-font` value (plain, function or expression).
    public mutating func walk(_ value: JSONValue, layer: String, what: String) {
        if let names = Self.fontNames(value) {
            add(names)
            return
        }
        if let function = value.objectValue {
            // Legacy function: stops [[input, output], …] and default.
            var any = false
            if let stops = function["stops"]?.arrayValue {
                for case .array(let stop) in stops where stop.count == 2 {
                    walk(stop[1], layer: layer, what: what)
                    any = true
                }
            }
            if let fallback = function["default"] {
                walk(fallback, layer: layer, what: what)
                any = true
            }
            if !any { note(value, layer: layer, what: what) }
            return
        }
        guard let array = value.arrayValue, let op = array.first?.stringValue, Self.operators.contains(op) else {
            note(value, layer: layer, what: what)
            return
        }
        let n = array.count
        switch op {
        case "literal":
            if n == 2, let names = Self.stringArray(array[1]), !names.isEmpty { add(names) } else { note(value, layer: layer, what: what) }
        case "step":
            // ["step", input, out0, stop1, out1, …]
            var i = 2
            while i < n { walk(array[i], layer: layer, what: what); i += 2 }
        case "match":
            // ["match", input, labels1, out1, …, labelsK, outK, fallback]
            var i = 3
            while i < n - 1 { walk(array[i], layer: layer, what: what); i += 2 }
            if n >= 3 { walk(array[n - 1], layer: layer, what: what) }
        case "case":
            // ["case", cond1, out1, …, fallback]
            var i = 2
            while i < n - 1 { walk(array[i], layer: layer, what: what); i += 2 }
            if n >= 2 { walk(array[n - 1], layer: layer, what: what) }
        case "coalesce":
            for arg in array.dropFirst() { walk(arg, layer: layer, what: what) }
        case "let":
            // ["let", name1, value1, …, body]: bound values may be stacks that `var` returns.
            var i = 2
            while i < n - 1 { walkQuietly(array[i], layer: layer, what: what); i += 2 }
            if n >= 2 { walk(array[n - 1], layer: layer, what: what) }
        case "var":
            break
        case "array":
            // ["array", value] / ["array", type, value] / ["array", type, length, value]
            if n >= 2 { walk(array[n - 1], layer: layer, what: what) }
        default:
            note(value, layer: layer, what: what)
        }
    }

    /// Finds `format` expressions anywhere in a `text-field` value and walks their `text-font`
    /// section options.
    mutating func walkFormats(_ value: JSONValue, layer: String) {
        guard let array = value.arrayValue else { return }
        if let op = array.first?.stringValue, op == "literal" { return }
        if let op = array.first?.stringValue, op == "format" {
            for case .object(let options) in array.dropFirst() {
                if let font = options["text-font"] { walk(font, layer: layer, what: "text-field format text-font") }
            }
        }
        for element in array { walkFormats(element, layer: layer) }
    }

    /// A `let` binding: collect stacks it holds, but a non-font value (a number, a colour) there
    /// is not a problem.
    private mutating func walkQuietly(_ value: JSONValue, layer: String, what: String) {
        let before = unresolved.count
        walk(value, layer: layer, what: what)
        unresolved.removeSubrange(before...)
    }

    private mutating func add(_ names: [String]) {
        if seen.insert(names).inserted { stacks.append(names) }
    }

    private mutating func note(_ value: JSONValue, layer: String, what: String) {
        unresolved.append("layer \"\(layer)\": \(what) \(Self.compactText(value)) depends on data; its fonts are not packed")
    }

    // MARK: - Values

    /// A plain font list: an array of strings whose first element is not an operator.
    static func fontNames(_ value: JSONValue) -> [String]? {
        guard let names = stringArray(value), let first = names.first, !operators.contains(first) else { return nil }
        return names
    }

    static func stringArray(_ value: JSONValue) -> [String]? {
        guard let array = value.arrayValue else { return nil }
        var names: [String] = []
        for element in array {
            guard let s = element.stringValue else { return nil }
            names.append(s)
        }
        return names
    }

    /// Short text of a JSON value for messages.
    static func compactText(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return "\"\(s)\""
        case .array(let a): return "[" + a.prefix(4).map(compactText).joined(separator: ", ") + (a.count > 4 ? ", …" : "") + "]"
        case .object: return "{…}"
        default: return JSONWriter.string(value, pretty: false)
        }
    }

    /// Expression operators of the MapLibre and Mapbox GL style specifications: an array starting
    /// with one of these is an expression, not a font list (as GL's `isExpression` decides).
    static let operators: Set<String> = [
        "let", "var", "literal", "array", "at", "in", "index-of", "slice", "case", "match", "coalesce",
        "step", "interpolate", "interpolate-hcl", "interpolate-lab", "ln2", "pi", "e", "typeof", "string",
        "number", "boolean", "object", "collator", "format", "image", "number-format", "to-string",
        "to-number", "to-boolean", "to-rgba", "to-color", "to-hsla", "rgb", "rgba", "hsl", "hsla", "get", "has",
        "length", "properties", "feature-state", "geometry-type", "id", "zoom", "heatmap-density",
        "line-progress", "accumulated", "+", "*", "-", "/", "%", "^", "sqrt", "log10", "ln", "log2", "sin",
        "cos", "tan", "asin", "acos", "atan", "min", "max", "round", "abs", "ceil", "floor", "distance",
        "==", "!=", ">", "<", ">=", "<=", "all", "any", "none", "!", "within", "is-supported-script", "upcase",
        "downcase", "concat", "resolved-locale", "config", "measure-light", "pitch", "distance-from-center",
        "raster-value", "raster-particle-speed", "sky-radial-progress", "random", "global-state", "split",
        "elevation", "worldview", "at-interpolated", "filter-==", "filter-!=", "filter->", "filter-<",
        "filter->=", "filter-<=", "filter-in-small", "filter-in-large", "filter-has", "filter-has-id",
        "filter-id-==", "filter-type-==", "filter-type-in", "filter-id-in", "filter-id-<", "filter-id->",
    ]
}
