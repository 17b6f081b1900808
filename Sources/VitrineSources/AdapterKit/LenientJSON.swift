import Foundation
import VitrineCore

/// Decodes an element, or keeps the error: one bad record must not lose its page.
struct Lenient<Value: Decodable>: Decodable {
    var result: Result<Value, any Error>
    /// How deep in the page the record sits: its path's first keys, which a warning leaves out (it names the
    /// record's position already).
    private var depth: Int

    init(from decoder: any Decoder) throws {
        depth = decoder.codingPath.count
        do {
            result = .success(try Value(from: decoder))
        } catch {
            result = .failure(error)
        }
    }

    /// What the page's record is: whatever `map` makes of the decoded value, or skipped, saying what was wrong.
    func outcome(_ map: (Value) -> RecordOutcome) -> RecordOutcome {
        switch result {
        case .success(let value): map(value)
        case .failure(let error): .skipped(reason: DecodingFailure.describe(error, droppingFirst: depth))
        }
    }
}

/// Short, one-line descriptions of `DecodingError`s.
enum DecodingFailure {
    /// - parameter depth: how many of the path's first keys to leave out (the record's own place in the page).
    static func describe(_ error: any Error, droppingFirst depth: Int = 0) -> String {
        // Foundation's own JSON errors name Swift types: a user reads what they mean.
        guard let error = error as? DecodingError else { return "a value could not be read" }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \(path(context.codingPath + [key], droppingFirst: depth))"
        case .valueNotFound(_, let context):
            return "null field \(path(context.codingPath, droppingFirst: depth))"
        case .typeMismatch(let type, let context):
            // The whole answer, or the whole record, is not what the API sends (a list for an object).
            guard context.codingPath.count > depth else {
                return depth == 0 ? "the answer is not the JSON this API sends" : "the record is not a JSON object"
            }
            return "field \(path(context.codingPath, droppingFirst: depth)) is not \(typeName(type))"
        case .dataCorrupted(let context):
            // A field's value that is valid JSON but cannot be read as its kind (a number too large, say).
            guard context.codingPath.count <= depth else {
                return "field \(path(context.codingPath, droppingFirst: depth)) has a value that cannot be read"
            }
            let underlying = (context.underlyingError as? NSError)?.localizedDescription ?? context.debugDescription
            return "not valid JSON (\(underlying))"
        @unknown default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey], droppingFirst depth: Int) -> String {
        let names = keys.dropFirst(depth).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return names.isEmpty ? "(record)" : names.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "of the expected type"
        }
    }
}

extension SourceResponse {
    /// The body decoded as `T`, or an `undecodablePage` failure saying what was wrong. The one way adapters read
    /// JSON.
    func decodeJSON<T: Decodable>(_ type: T.Type) throws(HarvestFailure) -> T {
        var unused: [String] = []
        return try decodeJSON(type, page: .token(nil), notices: &unused)
    }

    /// The body decoded as `T`; a page whose JSON needed mending (see `JSONMending`) adds its note to `notices`.
    func decodeJSON<T: Decodable>(
        _ type: T.Type, page: PageCursor, notices: inout [String]
    ) throws(HarvestFailure) -> T {
        // A web page, plain text or nothing where JSON belongs is a server's maintenance or error page, sent with
        // 200: worth a retry.
        if !looksLikeJSON {
            throw .unavailable(
                status,
                looksLikeXML
                    ? "a web page came where JSON belongs (maintenance?): \(bodySnippet.prefix(80))"
                    : "no JSON came (\(body.isEmpty ? "an empty answer" : bodySnippet.prefix(80)))",
                retryAfter: retryAfter())
        }
        let mended = JSONMending.mended(body)
        if let changes = mended?.changes {
            notices.append(
                "page \(page): the server sent \(changes) \(changes == 1 ? "piece" : "pieces") of text that is not "
                    + "UTF-8 (bytes, or a lone surrogate's escape); read as U+FFFD (\u{FFFD})")
        }
        do {
            return try JSONDecoder().decode(T.self, from: mended?.body ?? body)
        } catch {
            // A connection closed part way through an answer with no length to tell it by: asked again.
            if JSONMending.isCutShort(body) { throw .connection("the answer stopped before the end of its JSON") }
            throw .undecodablePage(DecodingFailure.describe(error))
        }
    }
}

/// JSON mended where Foundation's decoder would drop a whole field, or record, for one bad character: bytes that
/// are not UTF-8 become U+FFFD, as do `\u` escapes of lone surrogates (`\ud800`), as an OAI-PMH page's are.
enum JSONMending {
    /// Whether `body` stops inside a string, an object or an array: the rest of the answer never came.
    static func isCutShort(_ body: Data) -> Bool {
        var (depth, inString, escaped) = (0, false, false)
        for byte in body {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return inString || depth > 0
    }

    /// The mended body and how many places changed; `nil` when it needed nothing.
    static func mended(_ body: Data) -> (body: Data, changes: Int)? {
        var changes = 0
        var bytes: [UInt8]
        if String(validating: body, as: UTF8.self) == nil {
            bytes = []
            bytes.reserveCapacity(body.count + 16)
            var decoder = UTF8()
            var input = body.makeIterator()
            decoding: while true {
                switch decoder.decode(&input) {
                case .scalarValue(let scalar): bytes.append(contentsOf: String(scalar).utf8)
                case .error:
                    changes += 1
                    bytes.append(contentsOf: [0xEF, 0xBF, 0xBD])
                case .emptyInput: break decoding
                }
            }
        } else {
            guard body.contains(UInt8(ascii: "\\")) else { return nil }
            bytes = [UInt8](body)
        }
        changes += mendSurrogateEscapes(&bytes)
        return changes == 0 ? nil : (Data(bytes), changes)
    }

    /// Replaces each `\uD800`…`\uDFFF` escape that is not half of a pair with `\uFFFD`; returns how many.
    private static func mendSurrogateEscapes(_ bytes: inout [UInt8]) -> Int {
        func unit(at index: Int) -> UInt16? {
            guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { return nil }
            return UInt16(String(decoding: bytes[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16)
        }
        var changes = 0
        var index = 0
        while let slash = bytes[index...].firstIndex(of: UInt8(ascii: "\\")) {
            guard let value = unit(at: slash) else {
                index = min(slash + 2, bytes.count)
                continue
            }
            if (0xD800...0xDBFF).contains(value), let low = unit(at: slash + 6), (0xDC00...0xDFFF).contains(low) {
                index = slash + 12
            } else if (0xD800...0xDFFF).contains(value) {
                bytes.replaceSubrange((slash + 2)..<(slash + 6), with: Array("FFFD".utf8))
                changes += 1
                index = slash + 6
            } else {
                index = slash + 6
            }
        }
        return changes
    }
}

/// An id the API sends as a number or as a string, without surrounding spaces; an empty one is no id.
struct FlexibleID: Decodable, Sendable {
    var value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = String(number)
        } else {
            value = try container.decode(String.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !value.isEmpty else {
                throw DecodingError.valueNotFound(
                    String.self, .init(codingPath: decoder.codingPath, debugDescription: "an empty id"))
            }
        }
    }
}

/// A detail field that is dropped, not fatal, when the API sends it in another type than documented: the record
/// is kept without it. Text sent as a number is read as its digits.
struct Tolerant<Value: Decodable & Sendable>: Decodable, Sendable {
    var value: Value?

    init(from decoder: any Decoder) throws {
        value = try? decoder.singleValueContainer().decode(Value.self)
        if value == nil, Value.self == String.self { value = try FlexibleText(from: decoder).text as? Value }
    }
}

/// A date the API sends as text (`2016-05-03T11:00:28Z`); anything else, a number included, is none.
struct DateText: Decodable, Sendable {
    var value: String?

    init(from decoder: any Decoder) throws {
        value = try? decoder.singleValueContainer().decode(String.self)
    }
}

extension KeyedDecodingContainer {
    /// The text at `key`, or its digits when it is a number; `nil` for anything else: a member of a nested
    /// object sent in another type loses itself, not the object.
    func text(_ key: Key) -> String? {
        (try? decodeIfPresent(FlexibleText.self, forKey: key))?.flatMap(\.text)
    }
}

/// A list whose items the API may send in another type than documented (or that is no list at all): each such
/// item is `nil`, the others kept (a `Tolerant` array would drop the whole list for one of them).
struct TolerantList<Element: Decodable & Sendable>: Decodable, Sendable {
    var value: [Element?]?

    init(from decoder: any Decoder) throws {
        value = (try? decoder.singleValueContainer().decode([Tolerant<Element>].self))?.map(\.value)
    }
}

/// A whole number the API sends as a number (`3000`, `3000.0`, `3000.5` cut to 3000) or as digits in a string;
/// anything else is none.
struct FlexibleInt: Decodable, Sendable {
    var value: Int?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let whole = try? container.decode(Int.self) {
            value = whole
        } else if let real = try? container.decode(Double.self), real.isFinite, abs(real) < 1e15 {
            value = Int(real)
        } else if let text = try? container.decode(String.self) {
            value = Int(text.trimmingCharacters(in: .whitespaces))
        }
    }
}

/// A year the API sends as a number (`1884`, `1884.0`) or as digits in a string; anything else is none.
struct FlexibleYear: Decodable, Sendable {
    var value: Int?

    init(from decoder: any Decoder) throws {
        // A placeholder for "unknown" (`-9223372036854775808`, `999999999`) is no year.
        value = try FlexibleInt(from: decoder).value.flatMap { (-99_999...99_999).contains($0) ? $0 : nil }
    }
}

/// A value the API sends as text or as a number (`"379,5"`, `379.5`), as text.
struct FlexibleText: Decodable, Sendable {
    var text: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self.text = text
        } else if let number = try? container.decode(Int.self) {
            text = String(number)
        } else if let number = try? container.decode(Double.self), number.isFinite {
            text = String(number)
        } else {
            text = nil
        }
    }
}
