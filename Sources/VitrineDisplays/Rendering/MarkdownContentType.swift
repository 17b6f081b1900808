import Mustache

/// Mustache escaping for Markdown: every character that could start Markdown or HTML is backslash-escaped,
/// and line breaks become spaces, so data from an API shows as the text it is and raw HTML never passes.
/// Templates opt in with `{{% CONTENT_TYPE: MARKDOWN}}`.
package struct MarkdownContentType: MustacheContentType {
    /// The pragma name templates use.
    package static let name = "MARKDOWN"
    /// The ASCII punctuation that can start Markdown or HTML in the middle of a line (values never start a
    /// line: templates place them after `- `, `## ` or text, and line breaks in values become spaces).
    static let escaped: Set<Character> = ["\\", "`", "*", "_", "[", "]", "<", ">", "(", ")", "#", "!", "|", "~", "&"]

    package init() {}

    package func escapeText(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count + 8)
        for character in text {
            if character.isNewline {
                result.append(" ")
            } else {
                if Self.escaped.contains(character) { result.append("\\") }
                result.append(character)
            }
        }
        return result
    }

    /// Registers the content type with Mustache (a global registry), once.
    package static func register() {
        MustacheContentTypes.register(MarkdownContentType(), named: name)
    }
}
