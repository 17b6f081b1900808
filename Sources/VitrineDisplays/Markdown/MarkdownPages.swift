import VitrineCore

// The split Markdown catalog's models (past `MarkdownDisplay.splitThreshold` objects); a catalog small enough
// for one file is rendered from the `CatalogViewModel` itself.

/// `catalog.md` when split: the letters, each with its file.
struct MarkdownContents: TemplateContext {
    let title: String
    let subtitle: String
    let letters: [MarkdownLetterLink]

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .title: .text(title)
        case .subtitle: .text(subtitle)
        case .letters: .list(letters)
        default: nil
        }
    }
}

/// A letter in the split catalog's contents.
struct MarkdownLetterLink: TemplateContext {
    let label: String
    /// The letter's file inside `catalog/` (`a.md`).
    let file: String
    let countLabel: String

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .label: .text(label)
        case .file: .text(file)
        case .countLabel: .text(countLabel)
        default: nil
        }
    }
}

/// `catalog/{letter}.md`: one letter's sections, with the catalog's section and object keys.
struct MarkdownLetter: TemplateContext {
    let title: String
    let label: String
    let countLabel: String
    let sections: [CatalogViewModel.DisplayedSection]

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .title: .text(title)
        case .label: .text(label)
        case .countLabel: .text(countLabel)
        case .sections: .list(sections)
        default: nil
        }
    }
}
