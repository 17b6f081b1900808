// An object's details made display strings: one-line fields on one line and capped as titles are; prose and
// measurements keep their line breaks, and lose everything else a page should not show.
extension ExportPresenter {
    /// The longest description a catalog shows, in characters.
    package static let longestDescription = 20_000
    /// The longest value of an other fact (a provenance runs to paragraphs), in characters.
    static let longestFact = 4_000

    static func displayedDetails(_ object: ArtObject) -> DisplayedDetails {
        let details = object.details
        var shown = DisplayedDetails()
        // Unique as the record keys are: two that differ only by a control character stay two.
        shown.recordID = PrintableText.escaped(object.recordKey.text)
        shown.datestamp = oneLine(object.datestamp ?? "", limit: longestDate)
        guard !details.isEmpty else { return shown }
        func line(_ text: String?) -> String { oneLine(text ?? "", limit: longestName) }
        // Each value once as shown: two that differ only by what cleaning takes out (a zero-width space) are one.
        func lines(_ items: [String]) -> [String] {
            var seen: Set<String> = []
            return items.map(line).filter { !$0.isEmpty && seen.insert($0).inserted }
        }
        shown.yearBegin = details.yearBegin
        shown.yearEnd = details.yearEnd
        shown.objectType = line(details.objectType)
        shown.materials = lines(details.materials)
        shown.dimensions = paragraphs(details.dimensions ?? "", limit: longestName, separator: "\n")
        shown.description = paragraphs(details.description ?? "", limit: longestDescription, separator: "\n\n")
        shown.creditLine = line(details.creditLine)
        shown.place = line(details.place)
        shown.subjects = lines(details.subjects)
        var named: Set<[String]> = []
        shown.makers = details.makers.compactMap { maker in
            let name = line(maker.name)
            let role = line(maker.role)
            guard !name.isEmpty, named.insert([name, role]).inserted else { return nil }
            return .init(name: name, role: role, lifeDates: line(maker.lifeDates), sortName: line(maker.sortName))
        }
        shown.makers = Array(shown.makers.prefix(ObjectDetails.listLimit))
        if let rights = details.rights {
            shown.rightsLabel = line(rights.label)
            shown.rightsURL = WebURL.filter(rights.url)
            shown.isOpenAccess = rights.isOpen
            shown.attribution = line(rights.attribution)
            // Every Creative Commons license but CC0 asks for a credit: title, maker and license, the object's page
            // being linked beside it.
            if shown.attribution.isEmpty, shown.rightsLabel.hasPrefix("CC BY") {
                let title = oneLine(object.title, limit: longestTitle)
                let maker = oneLine(object.maker ?? "", limit: longestName)
                shown.attribution =
                    (title.isEmpty ? "Untitled" : "“\(title)”") + (maker.isEmpty ? "" : " by \(maker)") + ", "
                    + shown.rightsLabel
            }
            shown.attributionParts = creditParts(shown.attribution, links: rights.links)
        }
        shown.altText = oneLine(details.altText ?? "", limit: longestTitle)
        shown.otherFacts.reserveCapacity(details.otherFacts.count)
        for fact in details.otherFacts {
            let (label, value) = (line(fact.label), oneLine(fact.value, limit: longestFact))
            guard !label.isEmpty, !value.isEmpty else { continue }
            // One value a label, as a page's list and the JSON Lines object keyed by label show them.
            if let index = shown.otherFacts.firstIndex(where: { $0.label == label }) {
                shown.otherFacts[index].value = oneLine(
                    shown.otherFacts[index].value + "; " + value, limit: longestFact)
            } else {
                shown.otherFacts.append(.init(label: label, value: value))
            }
        }
        return shown
    }

    /// `credit` in pieces: each link's words, where they stand as words after the last link's, linked to its
    /// address (a link whose words the credit lacks, or whose address is no web address, is left out); the rest as
    /// text.
    static func creditParts(_ credit: String, links: [Rights.Link]) -> [DisplayedDetails.CreditPart] {
        guard !credit.isEmpty else { return [] }
        // A credit given in pieces (its links' words joined are the credit; plain words have no address), as a
        // source that writes the credit gives it: as given, whatever words a name shares with the rest.
        if links.count > 1 {
            let pieces = links.map { PrintableText.composed(PrintableText.clean($0.text)) }
            // Byte for byte: `==` would take a decomposed name for the composed one the credit shows.
            if pieces.joined().utf8.elementsEqual(credit.utf8) {
                return zip(pieces, links).map { .init(text: $0, url: WebURL.filter($1.url)) }
            }
        }
        var parts: [DisplayedDetails.CreditPart] = []
        var rest = credit[...]
        for link in links {
            let (words, url) = (oneLine(link.text, limit: longestName), WebURL.filter(link.url))
            guard !words.isEmpty, !url.isEmpty, let found = wholeWords(words, in: rest) else { continue }
            if found.lowerBound > rest.startIndex {
                parts.append(.init(text: String(rest[..<found.lowerBound]), url: ""))
            }
            parts.append(.init(text: words, url: url))
            rest = rest[found.upperBound...]
        }
        if !rest.isEmpty { parts.append(.init(text: String(rest), url: "")) }
        return parts
    }

    /// The first place `words` stand in `text` with no letter or digit joined to either end (a photographer
    /// called `Ph` is not found in `Photo by Ph`'s first word).
    private static func wholeWords(_ words: String, in text: Substring) -> Range<Substring.Index>? {
        func joins(_ character: Character) -> Bool { character.isLetter || character.isNumber }
        return text.ranges(of: words).first { found in
            (found.lowerBound == text.startIndex || !joins(text[text.index(before: found.lowerBound)]))
                && (found.upperBound == text.endIndex || !joins(text[found.upperBound]))
        }
    }

    /// Text in blocks: for `"\n"` each line is a block, for `"\n\n"` each run of lines between empty ones (a
    /// paragraph); each block made one line, empty ones dropped, joined by `separator`; at most `limit` characters.
    static func paragraphs(_ text: String, limit: Int, separator: String) -> String {
        // Most are one clean line already: then they are kept as they are, with no copy.
        if isOneLine(text, limit: limit) { return PrintableText.composed(text) }
        let text = scalarCapped(text, limit: limit)
        var blocks: [String] = []
        var block: [Substring] = []
        func end() {
            let line = oneLine(block.joined(separator: " "))
            if !line.isEmpty { blocks.append(line) }
            block.removeAll()
        }
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if separator == "\n" || line.allSatisfy(\.isWhitespace) { end() }
            block.append(line)
        }
        end()
        let joined = blocks.joined(separator: separator)
        guard joined.count > limit else { return joined }
        // Cut between blocks, no separator or space is left before the ellipsis.
        var cut = joined.prefix(limit - 1)
        while let last = cut.last, last.isWhitespace { cut.removeLast() }
        return cut + "…"
    }
}
