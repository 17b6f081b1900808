import ArgumentParser
import VitrineScene
import VitrineSources

/// Which collection to harvest, and how to reach it.
struct SourceOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The collection to harvest: \(SourceRegistry.standard.names.joined(separator: ", ")).",
            valueName: "name"))
    var source: SourceID = .demo

    @Option(help: ArgumentHelp("The API's base URL: a mirror, a recording or a local mock.", valueName: "url"))
    var baseURL: String?

    @Option(
        help: ArgumentHelp(
            "The API key. Prefer the source's environment variable (UNSPLASH_ACCESS_KEY, RIJKSMUSEUM_API_KEY): "
                + "a flag shows in ps.",
            valueName: "key"
        )
    )
    var key: String?

    @Option(help: ArgumentHelp("The language the API answers in, where it has several.", valueName: "code"))
    var language: String = "en"

    @Option(help: ArgumentHelp("Only objects matching this free text, where the API can search.", valueName: "text"))
    var query: String?

    @Option(help: ArgumentHelp("Only this maker's objects, where the API can filter by maker.", valueName: "name"))
    var artist: String?

    @Option(help: ArgumentHelp("Only these departments (The Met's ids, e.g. 11 or 1,3,9).", valueName: "ids"))
    var department: String?

    @Option(
        help: ArgumentHelp("Only this OAI-PMH set (the Rijksmuseum's are numeric, e.g. 260214).", valueName: "spec"))
    var set: String?

    @Option(help: ArgumentHelp("OAI-PMH: records changed on or after this UTC date.", valueName: "YYYY-MM-DD"))
    var from: String?

    @Option(help: ArgumentHelp("OAI-PMH: records changed on or before this UTC date.", valueName: "YYYY-MM-DD"))
    var until: String?

    @Option(
        help: ArgumentHelp("OAI-PMH metadata format (edm for the Rijksmuseum, oai_dc elsewhere).", valueName: "prefix"))
    var metadataPrefix: String?

    /// The language code in its usual case (`en`, `en-GB`, `zh-Hant`): codes that differ only in case name one
    /// language, with one store.
    var canonicalLanguage: String {
        language.split(separator: "-").enumerated().map { index, part in
            switch (index, part.count) {
            case (0, _): part.lowercased()
            case (_, 2): part.uppercased()
            case (_, 4): part.prefix(1).uppercased() + part.dropFirst().lowercased()
            default: part.lowercased()
            }
        }.joined(separator: "-")
    }

    func validate() throws {
        let names = SourceRegistry.standard.names
        guard names.contains(source.rawValue) else {
            throw ValidationError("No source is called '\(source)'; choose \(names.joined(separator: ", ")).")
        }
        // It goes into addresses (the legacy API's path) and names the collection's store.
        guard language.wholeMatch(of: /[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*/) != nil else {
            throw ValidationError("--language must be a language code such as en, nl or en-GB, not '\(language)'.")
        }
    }
}

extension SourceID: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(rawValue: argument)
    }

    public var defaultValueDescription: String { rawValue }
}
