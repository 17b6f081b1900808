import Foundation

/// One object of a generated collection, before an API gives it its shape.
package struct SyntheticObject: Sendable, Equatable {
    /// Position in the collection, from 0.
    package var number: Int
    package var title: String
    /// `nil`: the API names no maker.
    package var maker: String?
    package var date: String
    package var hasImage: Bool
    /// What the mock OAI-PMH museum says beyond the basics (`OAIRichFields`); `nil` for one record in eight.
    package var details: SyntheticDetails? = nil
}

/// An object's rich fields, as the mock museum's EDM and Dublin Core records carry them.
package struct SyntheticDetails: Sendable, Equatable {
    package var description: String
    package var materials: [String]
    package var dimensions: String
    package var subjects: [String]
    package var place: String
    /// A Creative Commons or rightsstatements.org URI.
    package var rights: String
}

/// A deterministic collection of any size for the mock APIs. Makers are interleaved, so every maker turns up on
/// many pages (the Interactor must insert into existing sections); some makers are non-Latin, some objects
/// have no maker or no image, and some titles need escaping in HTML, Markdown and CSV.
package enum SyntheticCollection {
    package static let makers = [
        "Rembrandt van Rijn", "Johannes Vermeer", "Judith Leyster", "葛飾北斎", "Илья Репин", "Émile Bernard",
        "Frans Hals", "Clara Peeters", "Nguyễn Phan Chánh", "Jan Steen", "محمود مختار",
    ]

    package static func object(_ number: Int) -> SyntheticObject {
        let maker: String? = number % 13 == 12 ? nil : makers[(number * 7 + number / 5) % makers.count]
        let title =
            number % 9 == 4 ? "Still life with <glass>, \"lemon\" & [peel] #\(number + 1)" : "Study № \(number + 1)"
        return SyntheticObject(
            number: number, title: title, maker: maker, date: String(1600 + number % 250), hasImage: number % 5 != 4,
            details: number % 8 == 7 ? nil : details(number))
    }

    package static func objects(_ count: Int) -> [SyntheticObject] {
        (0..<count).map(object)
    }
}

/// Helpers the handlers share.
enum MockHTTP {
    /// The query as a form decodes it (`+` is a space), the way the real servers read it.
    static func formQuery(_ raw: String) -> [String: String] {
        var items: [String: String] = [:]
        for pair in raw.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if let name = parts.first, items[name] == nil { items[name] = parts.count > 1 ? parts[1] : "" }
        }
        return items
    }

    static func json(_ object: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    /// XML text with `& < > "` escaped.
    static func escapeXML(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// `number` with leading zeros to `width` digits (`String(format:)` is slow enough to show in benchmarks).
    static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
