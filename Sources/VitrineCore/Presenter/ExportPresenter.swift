/// Turns sections into what a reader sees, the same for every format: sorted sections, display strings, slugs,
/// index letters, thumbnail URLs and detail page names. Does no I/O: the catalog display writes, the progress display
/// prints. It presents one catalog at a time (its copies share the page names given so far).
package struct ExportPresenter: ExportPresentationLogic {
    /// Name of the section of objects with no known maker; always last.
    package static let unknownMakerName = "Unknown artist"
    /// Skipped-record warnings shown one by one before the rest are counted.
    package static let warningLimit = 20

    /// Width of a detail page's image: IIIF hosts (the Rijksmuseum's Micrio, AIC) cache 843 px renditions.
    package static let largeImageWidth = 843
    package let thumbnailWidth: Int
    package let catalogDisplay: any CatalogDisplayLogic
    package let progressDisplay: any ProgressDisplayLogic
    package let site: SiteIdentity
    /// The detail pages named so far: a catalog's parts come one at a time, in order.
    private let pageNames = Locked(ObjectPageNames())

    package init(
        thumbnailWidth: Int,
        catalogDisplay: any CatalogDisplayLogic,
        progressDisplay: any ProgressDisplayLogic,
        site: SiteIdentity = SiteIdentity()
    ) {
        self.thumbnailWidth = thumbnailWidth
        self.site = site
        self.catalogDisplay = catalogDisplay
        self.progressDisplay = progressDisplay
    }

    package func presentStart(_ start: CatalogStart) async throws {
        pageNames.withLock { $0 = ObjectPageNames() }
        try await catalogDisplay.displayStart(makeOutline(start))
    }

    package func presentPart(_ sections: consuming [ArtistSection]) async throws {
        // The harvested objects are let go as they become display strings.
        var objects = displayedObjects(consume sections)
        pageNames.withLock { $0.name(&objects) }
        try await catalogDisplay.displayPart(consume objects)
    }

    package func presentEnd(source: SourceDescriptor, statistics: ExportStatistics) async throws {
        pageNames.withLock { $0 = ObjectPageNames() }
        progressDisplay.displayWritten(Self.writtenViewModel(try await catalogDisplay.displayEnd()))
        progressDisplay.displaySummary(viewModel: makeSummary(source: source, statistics: statistics))
    }

    package func presentAbandoned() async {
        pageNames.withLock { $0 = ObjectPageNames() }
        await catalogDisplay.displayAbandoned()
    }

    package func presentProgress(_ progress: HarvestProgress) {
        progressDisplay.displayProgress(line: Self.progressLine(progress))
    }

    package func presentWait(_ wait: HarvestWait) {
        progressDisplay.displayProgress(line: Self.waitLine(wait))
    }

    /// `rijksmuseum: waiting 4.0 s before retry 2 of 5 of page 12: the server answered HTTP 503`.
    package static func waitLine(_ wait: HarvestWait) -> String {
        "\(wait.source): waiting \(NumberText.seconds(wait.seconds)) before retry \(wait.retry) of \(wait.retries) of "
            + "page \(wait.page): \(wait.reason)"
    }

    /// `rijksmuseum: 120 pages, 6,000 of 843,943 objects (0.7%), 850 objects/s, about 16 min left, 2 retries`.
    package static func progressLine(_ progress: HarvestProgress) -> String {
        var parts = [NumberText.counted(progress.pages, "page")]
        let rate = progress.elapsed > 0 ? Double(progress.objects) / progress.elapsed : 0
        if let total = progress.reportedTotal, total > 0 {
            let percent = (Double(progress.objects) / Double(total) * 1000).rounded() / 10
            parts.append(
                "\(NumberText.grouped(progress.objects)) of \(NumberText.grouped(total)) objects (\(percent)%)")
        } else {
            parts.append(NumberText.counted(progress.objects, "object"))
        }
        parts.append("\(NumberText.grouped(Int(rate.rounded()))) objects/s")
        if let total = progress.reportedTotal, rate > 0, total > progress.objects {
            parts.append("about \(NumberText.seconds(Double(total - progress.objects) / rate)) left")
        }
        if let windows = progress.windows {
            parts.append(
                "date windows: \(windows.done) done, \(windows.running) running, \(windows.planned) planned")
        }
        if progress.cacheHits > 0 { parts.append("\(NumberText.grouped(progress.cacheHits)) from cache") }
        if progress.retries > 0 { parts.append(retries(progress.retries)) }
        return "\(progress.source): " + parts.joined(separator: ", ")
    }

    private static func retries(_ number: Int) -> String {
        "\(NumberText.grouped(number)) \(number == 1 ? "retry" : "retries")"
    }

    // MARK: - Summary

    /// The end-of-run report.
    package func makeSummary(source: SourceDescriptor, statistics: ExportStatistics) -> SummaryViewModel {
        var warnings = statistics.warnings.prefix(Self.warningLimit).map { "warning: \($0)" }
        if statistics.warnings.count > Self.warningLimit {
            warnings.append("warning: … and \(statistics.warnings.count - Self.warningLimit) more skipped records")
        }
        var parts = Self.runDescription(statistics).map { [$0] } ?? []
        parts += [
            NumberText.counted(statistics.pages, "page"),
            NumberText.counted(statistics.objects, "object")
                + (statistics.readShortOfReported
                    ? " (the API reported \(NumberText.grouped(statistics.reportedTotal ?? 0)))" : ""),
            NumberText.counted(statistics.sections, "section"),
            NumberText.counted(statistics.duplicates, "duplicate"),
            "\(statistics.skipped) skipped",
        ]
        if statistics.leftOut > 0 {
            parts.append("\(NumberText.grouped(statistics.leftOut)) left out (not open access)")
        }
        if statistics.deleted > 0 {
            parts.append("\(NumberText.grouped(statistics.deleted)) deleted at the source")
        }
        if statistics.goneFromSet > 0 {
            parts.append(
                "\(NumberText.grouped(statistics.goneFromSet)) gone from the set (moved out of it, or deleted)")
        }
        if statistics.cacheHits > 0 { parts.append("\(NumberText.grouped(statistics.cacheHits)) from cache") }
        if statistics.retries > 0 { parts.append(Self.retries(statistics.retries)) }
        parts.append(NumberText.seconds(statistics.seconds))
        var summary = SummaryViewModel(
            warnings: warnings,
            notices: statistics.notices.map { "note: \($0)" },
            summary: "vitrine: \(source.name): " + parts.joined(separator: ", ")
        )
        summary.report = Self.report(source: source, statistics: statistics, summary: summary.summary)
        return summary
    }

    /// The summary's figures as values, for `--summary-json`.
    static func report(source: SourceDescriptor, statistics: ExportStatistics, summary: String) -> RunReport {
        var report = RunReport()
        report.summary = summary
        report.source = source.name
        switch statistics.run {
        case .full: report.run = "full"
        case .incremental(let window):
            report.run = "incremental"
            report.changesSince = window.from
        case .stored: report.run = "offline"
        }
        report.pages = statistics.pages
        report.objects = statistics.objects
        report.sections = statistics.sections
        report.duplicates = statistics.duplicates
        report.skipped = statistics.skipped
        report.leftOut = statistics.leftOut
        report.new = statistics.changes?.new
        report.changed = statistics.changes?.changed
        report.deleted = statistics.changes?.deleted ?? statistics.deleted
        report.markedDeleted = statistics.deleted
        report.goneFromSet = statistics.goneFromSet
        report.requests = statistics.requests
        report.cacheHits = statistics.cacheHits
        report.retries = statistics.retries
        report.seconds = statistics.seconds
        report.warnings = statistics.warnings.map(\.description)
        report.notices = statistics.notices
        return report
    }

    /// `incremental run, changes since … (12 changed, 3 deleted, 5 new)`; `nil` without a collection store.
    static func runDescription(_ statistics: ExportStatistics) -> String? {
        guard let changes = statistics.changes else { return nil }
        let counts =
            "\(NumberText.grouped(changes.changed)) changed, \(NumberText.grouped(changes.deleted)) deleted, "
            + "\(NumberText.grouped(changes.new)) new"
        switch statistics.run {
        case .full: return "full run (\(counts))"
        case .incremental(let window):
            return "incremental run, changes since \(window.from ?? "the last harvest") (\(counts))"
        case .stored: return "from the collection store, no request"
        }
    }

    /// What the catalog display wrote, worded for the report.
    package static func writtenViewModel(_ written: WrittenCatalog) -> WrittenViewModel {
        let line =
            written.paths.isEmpty
            ? nil
            : "wrote " + written.paths.joined(separator: ", ")
                + (written.kept > 0
                    ? " (\(NumberText.counted(written.rendered, "file")) rendered, "
                        + "\(NumberText.grouped(written.kept)) unchanged and kept)" : "")
        return WrittenViewModel(line: line, notices: written.notices, rendered: written.rendered, kept: written.kept)
    }

    // MARK: - Formatting

    /// Text on one line: control characters out, runs of whitespace and line breaks one space, and at most
    /// `limit` characters (a 10 MB title from an API would otherwise be written on every page that shows it).
    package static func oneLine(_ text: String, limit: Int = Int.max) -> String {
        isOneLine(text, limit: limit) ? PrintableText.composed(text) : madeOneLine(text, limit: limit)
    }

    /// `oneLine`'s general path, character by character.
    static func madeOneLine(_ text: String, limit: Int) -> String {
        let line = PrintableText.composed(PrintableText.clean(scalarCapped(text, limit: limit))).split(whereSeparator: {
            $0.isWhitespace || $0.isNewline
        })
        .joined(separator: " ")
        guard line.count > limit else { return line }
        return String(line.prefix(limit - 1)) + "…"
    }

    /// `text` cut to 31 Unicode scalars a character of `limit` (a character with its 30 combining marks): one
    /// character may also join any number of scalars that are no marks (variation selectors, jamo, emoji joined by
    /// U+200D), which a cap by characters lets through whole.
    static func scalarCapped(_ text: String, limit: Int) -> String {
        let most = limit.multipliedReportingOverflow(by: 31)
        guard !most.overflow, text.utf8.count > most.partialValue else { return text }
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: most.partialValue, limitedBy: scalars.endIndex)
        else { return text }
        return String(scalars[..<end])
    }

    /// Whether `text` is already on one line, printable and within `limit`: checked byte by byte, as most titles
    /// are, so that they cost no copy. Anything unusual (control characters, bidi marks, Unicode spaces or line
    /// separators, runs of spaces) is left to the slow path.
    static func isOneLine(_ text: String, limit: Int) -> Bool {
        let utf8 = text.utf8
        guard utf8.count <= limit else { return false }
        var afterSpace = true
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            // A space and a combining mark after it are one character, which counts as a space: after a space,
            // only ASCII, the lead bytes of Latin, Greek and Cyrillic letters, and U+2100…U+2CBF (letterlike
            // symbols such as `№`, arrows, mathematical and other symbols, box drawing, Braille, Glagolitic: no
            // combining marks among them) stay on this path.
            if afterSpace, byte >= 0x80, !(0xC3...0xCB).contains(byte), !(0xCE...0xD1).contains(byte),
                !Self.isSymbolLead(utf8, at: index)
            {
                return false
            }
            switch byte {
            case 0x20:
                if afterSpace { return false }
                afterSpace = true
            case 0x21...0x7E:
                afterSpace = false
            case 0xC2, 0xE1, 0xE2, 0xE3, 0xEF:
                // Lead bytes of C1 controls, NBSP, NEL, U+1680, U+2000…U+206F (spaces, separators, bidi), U+3000,
                // U+FEFF (a byte-order mark; with it U+FEC0…U+FEFE).
                let next = utf8.index(after: index)
                guard next != utf8.endIndex else { return false }
                let second = utf8[next]
                switch byte {
                case 0xC2: if second <= 0xA0 { return false }
                case 0xE1: if second == 0x9A { return false }
                case 0xE2: if second == 0x80 || second == 0x81 { return false }
                case 0xEF: if second == 0xBB { return false }
                default: if second == 0x80 { return false }
                }
                afterSpace = false
            case 0x80...:
                afterSpace = false
            default:
                return false
            }
            index = utf8.index(after: index)
        }
        return !afterSpace || utf8.isEmpty
    }

    /// Whether the scalar at `index` is in U+2100…U+2CBF (`E2 84` to `E2 B2`).
    private static func isSymbolLead(_ utf8: String.UTF8View, at index: String.UTF8View.Index) -> Bool {
        guard utf8[index] == 0xE2 else { return false }
        let next = utf8.index(after: index)
        return next != utf8.endIndex && (0x84...0xB2).contains(utf8[next])
    }

    /// The longest title, maker name, date and id a catalog shows, in characters.
    package static let longestTitle = 2_000
    package static let longestName = 500
    package static let longestDate = 200
    package static let longestID = 500
}
