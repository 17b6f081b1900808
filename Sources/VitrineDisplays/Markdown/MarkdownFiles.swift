import VitrineCore

/// A file of the split Markdown catalog: a letter's makers, or part of them. A letter of more than
/// `objectsPerFile` objects is cut between makers into numbered files (`j.md`, `j--2.md` …), each of at most that
/// many objects unless one maker alone has more: a bigger file opens in no viewer, and the catalog is written a
/// file at a time (`CatalogPart.ranges`), so no more than one file's objects are in memory at once.
struct MarkdownFile: Sendable, Equatable {
    /// Objects in one file, unless one maker alone has more.
    static let objectsPerFile = 50_000

    /// The file's name inside `catalog/`.
    let name: String
    /// `J`, or `J, part 2` for a letter in several files.
    let label: String
    let sections: Range<Int>
    /// `3 makers, 24 objects`.
    let countLabel: String

    /// The files of a catalog's outline, in catalog order.
    static func files(of outline: CatalogViewModel, objectsPerFile: Int = objectsPerFile) -> [MarkdownFile] {
        var files: [MarkdownFile] = []
        for group in GalleryPlan.groups(of: outline.sections) {
            var ranges: [Range<Int>] = []
            var start = group.sections.startIndex
            var objects = 0
            for index in group.sections.indices {
                let count = outline.sections[index].objectCount
                if index > start, objects + count > objectsPerFile {
                    ranges.append(start..<index)
                    (start, objects) = (index, 0)
                }
                objects += count
            }
            ranges.append(start..<group.sections.endIndex)
            for (number, range) in ranges.enumerated() {
                files.append(
                    MarkdownFile(
                        name: number == 0 ? "\(group.stem).md" : "\(group.stem)--\(number + 1).md",
                        label: ranges.count == 1 ? group.label : "\(group.label), part \(number + 1)",
                        sections: range, countLabel: GalleryPlan.makersLabel(outline.sections[range])))
            }
        }
        return files
    }
}
