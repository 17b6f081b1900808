/// The anchors GitHub-flavoured Markdown renderers give headings, so a table of contents can link to them:
/// lower-cased, punctuation dropped, spaces to hyphens, and `-1`, `-2` … on repeats.
package struct MarkdownAnchor: Sendable {
    private var counts: [String: Int] = [:]

    /// - parameter reserved: anchors of headings the template writes itself (`contents`).
    package init(reserved: [String] = []) {
        for anchor in reserved { counts[anchor] = 1 }
    }

    /// The anchor of the next heading with this text.
    package mutating func next(for heading: String) -> String {
        var base = ""
        for character in heading.lowercased() {
            if character == " " {
                base.append("-")
            } else if character == "-" || character == "_" || character.isLetter || character.isNumber {
                base.append(character)
            }
        }
        let seen = counts[base, default: 0]
        counts[base] = seen + 1
        return seen == 0 ? base : "\(base)-\(seen)"
    }
}
