import Foundation
import VitrineCore

/// Decodes an element, or keeps the error: one bad record must not lose its page.
struct Lenient<Value: Decodable>: Decodable {
    var result: Result<Value, any Error>

    init(from decoder: any Decoder) throws {
        do {
            result = .success(try Value(from: decoder))
        } catch {
            result = .failure(error)
        }
    }
}

/// Short, one-line descriptions of `DecodingError`s.
enum DecodingFailure {
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \(path(context.codingPath + [key]))"
        case .valueNotFound(_, let context):
            return "null field \(path(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "field \(path(context.codingPath)) is not \(typeName(type))"
        case .dataCorrupted(let context):
            let field = context.codingPath.isEmpty ? "" : " at \(path(context.codingPath))"
            let underlying = (context.underlyingError as? NSError)?.localizedDescription ?? context.debugDescription
            return "not valid JSON\(field) (\(underlying))"
        @unknown default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        // Skip the array index of the record itself: the warning already names the position.
        let names = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        let trimmed = names.drop { $0.hasPrefix("[") || $0 == "artObjects" }
        return trimmed.isEmpty ? "(record)" : trimmed.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
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
    /// The body decoded as `T`, or an `undecodablePage` failure saying what was wrong.
    func decodeJSON<T: Decodable>(_ type: T.Type) throws(HarvestFailure) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            throw .undecodablePage(DecodingFailure.describe(error))
        }
    }
}

/// An id the API sends as a number or as a string.
struct FlexibleID: Decodable, Sendable {
    var value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = String(number)
        } else {
            value = try container.decode(String.self)
        }
    }
}
