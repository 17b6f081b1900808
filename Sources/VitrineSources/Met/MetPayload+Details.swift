import VitrineCore

extension MetPayload.Object {
    /// `tags[]`: a subject, with its Getty AAT and Wikidata links (not read).
    struct Tag: Decodable, Sendable {
        var term: String?

        init(from decoder: any Decoder) throws {
            term = try decoder.container(keyedBy: CodingKeys.self).text(.term)
        }

        private enum CodingKeys: String, CodingKey { case term }
    }

    /// `constituents[]`: every maker with a role and links; `null` for many objects.
    struct Constituent: Decodable, Sendable {
        var name: String?
        var role: String?
        var ulan: String?
        var wikidata: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            (name, role) = (container.text(.name), container.text(.role))
            (ulan, wikidata) = (container.text(.constituentULAN_URL), container.text(.constituentWikidata_URL))
        }

        private enum CodingKeys: String, CodingKey { case name, role, constituentULAN_URL, constituentWikidata_URL }
    }

    /// What the Met says about the object. Empty strings mean none; `0` for both years means no dating.
    var details: ObjectDetails {
        var details = ObjectDetails(
            objectType: DetailText.line(objectName?.value) ?? DetailText.line(classification?.value),
            materials: DetailText.line(medium?.value).map { [$0] } ?? [],
            dimensions: DetailText.block(dimensions?.value),
            creditLine: DetailText.line(creditLine?.value),
            place: place,
            subjects: DetailText.lines((tags?.value ?? []).compactMap { $0?.term }),
            makers: makers
        )
        if let range = YearRange.given(begin: objectBeginDate?.value, end: objectEndDate?.value, text: objectDate?.text)
        {
            (details.yearBegin, details.yearEnd) = range
        }
        if isPublicDomain?.value == true {
            details.rights = .publicDomainDedication
        } else if let statement = DetailText.line(rightsAndReproduction?.value) {
            details.rights = Rights(statement: statement)
        } else if isPublicDomain?.value == false {
            details.rights = .notPublicDomain
        }
        details.addFact("Department", DetailText.line(department?.value))
        if !(place ?? "").isEmpty, place != DetailText.line(culture?.value) {
            details.addFact("Culture", DetailText.line(culture?.value))
        }
        details.addFact("Period", DetailText.line(period?.value))
        details.addFact("Dynasty", DetailText.line(dynasty?.value))
        if let classification = DetailText.line(classification?.value),
            classification.lowercased() != details.objectType?.lowercased()
        {
            details.addFact("Classification", classification)
        }
        details.addFact("Accession number", DetailText.line(accessionNumber?.value))
        // The maker's links: the `artist*` fields', else those of the constituent that is the maker.
        let maker = details.makers.first?.name
        let own = (constituents?.value ?? []).lazy.compactMap { $0 }.first { DetailText.line($0.name) == maker }
        details.addFact("Maker in ULAN", [artistULAN_URL?.value, own?.ulan].map(WebURL.filter).first { !$0.isEmpty })
        details.addFact(
            "Maker in Wikidata", [artistWikidata_URL?.value, own?.wikidata].map(WebURL.filter).first { !$0.isEmpty })
        details.addFact("Object in Wikidata", WebURL.filter(objectWikidata_URL?.value))
        return details
    }

    /// `city, country` where given, else the culture (`Japan`, `American`).
    private var place: String? {
        let parts = [city?.value, country?.value].compactMap { DetailText.line($0) }
        return parts.isEmpty ? DetailText.line(culture?.value) : parts.joined(separator: ", ")
    }

    /// `artistBeginDate`–`artistEndDate` (`1853`, `1890`), for a maker with no bio; an end of `9999` is a
    /// living maker's.
    private var lifeYears: String? {
        let died = DetailText.line(artistEndDate?.value).flatMap { $0 == "9999" ? nil : $0 }
        return DetailText.lifeDates(born: DetailText.line(artistBeginDate?.value), died: died)
    }

    /// The `artist*` fields' maker first (the object's own maker, with bio and sort name), then the other
    /// constituents, each name and role once (the first `ObjectDetails.listLimit`); only the constituents when the
    /// `artist*` fields are empty.
    var makers: [ObjectDetails.Maker] {
        var seen: Set<[String?]> = []
        var listed: [ObjectDetails.Maker] = []
        for constituent in constituents?.value ?? [] where listed.count < ObjectDetails.listLimit {
            guard let name = DetailText.line(constituent?.name) else { continue }
            let role = DetailText.line(constituent?.role)
            if seen.insert([name, role]).inserted { listed.append(ObjectDetails.Maker(name: name, role: role)) }
        }
        guard let name = DetailText.line(artistDisplayName?.text) else { return listed }
        let own = listed.first { $0.name == name }
        let primary = ObjectDetails.Maker(
            name: name, role: DetailText.line(artistRole?.value) ?? own?.role,
            lifeDates: DetailText.line(artistDisplayBio?.value) ?? lifeYears,
            sortName: DetailText.line(artistAlphaSort?.value))
        // The constituent that is the artist* maker is already first.
        return [primary] + listed.filter { $0.name != name || $0.role != own?.role }
    }
}
