import VitrineCore

/// Browsing by object type and by period: every object's card, rendered as its artist page renders it, gathered a
/// part at a time in catalog order (past a few megabytes in a scratch file, so a million cards are never all in
/// memory), and the objects of each type and each century. At the end, `types.html` and `periods.html` list the
/// groups with their counts, and each group gets pages of cards (`types/{slug}.html`, `periods/{slug}.html`,
/// `{slug}--2.html` …) the size of an artist's.
struct BrowseIndex: Sendable {
    /// A type or a century, and its objects by number, in catalog order.
    struct Group: Sendable {
        var label: String
        var objects: [Int32] = []
    }

    /// Types by their name folded to lower case; the label is the first spelling met.
    private(set) var types: [String: Group] = [:]
    /// Centuries by number (`17` for the 1600s, `-5` for the fifth century BC); `Int.max` for the undated.
    private(set) var periods: [Int: Group] = [:]
    /// Every object's card, by object number.
    private var cards: SpilledRecords

    init(cards: SpilledRecords = SpilledRecords()) {
        self.cards = cards
    }

    /// Adds an object, with its card as rendered.
    mutating func add(card: [UInt8], type: String, yearBegin: Int?) throws(ExportError) {
        let number = Int32(cards.count)
        try cards.append { $0.append(contentsOf: card) }
        if !type.isEmpty { types[type.lowercased(), default: Group(label: type)].objects.append(number) }
        let century = yearBegin.map(Self.century) ?? Int.max
        periods[century, default: Group(label: Self.centuryLabel(century))].objects.append(number)
    }

    /// Makes the cards readable, once every object is added.
    mutating func finish() throws(ExportError) {
        try cards.finish()
    }

    /// The cards of objects `numbers`, one after another.
    func cards(_ numbers: ArraySlice<Int32>) -> [UInt8] {
        var bytes: [UInt8] = []
        cards.append(numbers, to: &bytes)
        return bytes
    }

    /// The types by name, then the centuries in time order (the undated last): each with its slug.
    func groups() -> (types: [(slug: String, group: Group)], periods: [(slug: String, group: Group)]) {
        var slugs = Slug.Registry(reserved: ["index"])
        // Two types can fold to one sort key (`Étude`, `etude`): their own keys, unique, settle the order, and so
        // which of them gets which page name, the same on every run.
        let types = types.map { (sortKey: SortKey.key(for: $0.value.label), key: $0.key, group: $0.value) }
            .sorted { ($0.sortKey, $0.key) < ($1.sortKey, $1.key) }
            .map { (slugs.claim(Slug.make($0.group.label, fallback: "type")), $0.group) }
        let periods = periods.sorted { $0.key < $1.key }.map { (Self.centurySlug($0.key), $0.value) }
        return (types, periods)
    }

    /// 1600…1699 is the 17th century, as museums date (`17th century` is 1600–1699 in their records and in
    /// `YearRange`); 1 BC…100 BC (years -1…-100, and a year 0 if a source gives one) the 1st century BC. No year
    /// overflows, however far a source's number is from any real one.
    static func century(_ year: Int) -> Int {
        year > 0 ? year / 100 + 1 : -(-(year + 1) / 100 + 1)
    }

    /// `17th century`, `5th century BC`, `Undated`.
    static func centuryLabel(_ century: Int) -> String {
        guard century != Int.max else { return "Undated" }
        let number = abs(century)
        let suffix =
            (11...13).contains(number % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
        return "\(number)\(suffix) century" + (century < 0 ? " BC" : "")
    }

    /// `17th-century`, `5th-century-bc`, `undated`: names the group's files.
    static func centurySlug(_ century: Int) -> String {
        Slug.make(centuryLabel(century), fallback: "undated")
    }
}
