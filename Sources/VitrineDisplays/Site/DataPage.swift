import VitrineCore

/// `data.html`: the catalog's data files with their sizes, and how many objects each rights statement covers.
struct DataPage: TemplateContext {
    let head: PageHead
    let subtitle: String
    let files: [DataFile]
    let rights: RightsTally
    let objectCount: Int

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .subtitle: .text(subtitle)
        case .dataFiles: .list(files)
        case .hasDataFiles: .flag(!files.isEmpty)
        case .rights: .list(rights.statements)
        case .openLabel: .text(rights.openLabel(of: objectCount))
        default: head.value(for: key)
        }
    }
}

/// A data file the data page offers.
struct DataFile: TemplateContext {
    let file: CatalogFile
    /// Whether the Markdown catalog is split into a file per letter (`catalog/`).
    let splitMarkdown: Bool

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .file, .href: .text(file.format.fileName)
        case .label: .text(Self.labels[file.format] ?? "")
        case .countLabel: .text(Self.size(file.size))
        case .text:
            .text(
                file.format == .markdown && splitMarkdown
                    ? "The catalog by maker, for reading and printing: these contents, and a file per letter in catalog/."
                    : Self.texts[file.format] ?? "")
        default: nil
        }
    }

    static let labels: [CatalogFormat: String] = [.csv: "CSV", .jsonl: "JSON Lines", .markdown: "Markdown"]
    static let texts: [CatalogFormat: String] = [
        .csv: "A row per object with every field, for a spreadsheet or a database.",
        .jsonl: "An object per line with every field, for scripts, SQLite or Datasette.",
        .markdown: "The catalog by maker, for reading and printing.",
    ]

    /// `912 bytes`, `83.4 KB`, `1.2 MB`, `3.07 GB` (powers of 1,000, as a download is counted).
    static func size(_ bytes: Int) -> String {
        if bytes < 1_000 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes) / 1_000
        for unit in ["KB", "MB", "GB"] {
            if value < 1_000 || unit == "GB" {
                let digits = value < 10 ? 2 : value < 100 ? 1 : 0
                return "\(Self.decimal(value, digits: digits)) \(unit)"
            }
            value /= 1_000
        }
        return "\(bytes) bytes"
    }

    private static func decimal(_ value: Double, digits: Int) -> String {
        let scale = [1.0, 10.0, 100.0][digits]
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

/// How many objects each rights statement covers, and how many are open for reuse: counted a part at a time.
/// A statement Vitrine knows (its label is not its address) is one row whichever of its addresses the records give
/// (`http` or `https`, with or without the last slash), linking the same one in every run: the `https` one first.
struct RightsTally: Sendable {
    /// Known statements by label, with no address; others by label and address.
    private var counts: [Statement: Int] = [:]
    /// The address each known statement's row links.
    private var addresses: [String: String] = [:]
    private(set) var open = 0

    struct Statement: Hashable, Sendable {
        let label: String
        let url: String
    }

    mutating func add(label: String, url: String, open isOpen: Bool) {
        let known = !url.isEmpty && url != label
        counts[Statement(label: label, url: known ? "" : url), default: 0] += 1
        if known {
            func rank(_ address: String) -> (Int, String) { (address.hasPrefix("https://") ? 0 : 1, address) }
            addresses[label] = addresses[label].map { rank($0) < rank(url) ? $0 : url } ?? url
        }
        if isOpen { open += 1 }
    }

    /// The statements, most objects first; the objects with none as `Not stated by the source`, last.
    var statements: [RightsCount] {
        func order(_ entry: (key: Statement, value: Int)) -> (Int, Int, String, String) {
            (entry.key.label.isEmpty ? 1 : 0, -entry.value, entry.key.label, entry.key.url)
        }
        return counts.sorted { order($0) < order($1) }.map { entry in
            let url = entry.key.url.isEmpty ? addresses[entry.key.label] ?? "" : entry.key.url
            return RightsCount(statement: Statement(label: entry.key.label, url: url), count: entry.value)
        }
    }

    func openLabel(of objectCount: Int) -> String {
        if counts.keys.allSatisfy(\.label.isEmpty) {
            return "The source states no rights: ask the museum before reusing its pictures."
        }
        return "Open for reuse (public domain or an open licence): \(NumberText.grouped(open)) of "
            + "\(NumberText.counted(objectCount, "object")). Check each object's rights before reusing the rest."
    }
}

/// A rights statement and how many objects it covers.
struct RightsCount: TemplateContext {
    let statement: RightsTally.Statement
    let count: Int

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .label: .text(statement.label.isEmpty ? "Not stated by the source" : statement.label)
        case .rightsURL: .text(statement.url)
        case .hasRightsURL: .flag(!statement.url.isEmpty)
        case .countLabel: .text(NumberText.counted(count, "object"))
        default: nil
        }
    }
}
