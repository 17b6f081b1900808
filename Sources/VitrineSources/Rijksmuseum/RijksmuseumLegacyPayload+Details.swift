import VitrineCore

extension RijksmuseumLegacyPayload.Record {
    struct Label: Decodable, Sendable {
        var description: String?
    }

    /// `{"unit":"cm","type":"hoogte","part":null,"value":"379,5"}`.
    struct Dimension: Decodable, Sendable {
        var unit: FlexibleText?
        var type: FlexibleText?
        var part: FlexibleText?
        var value: FlexibleText?
    }

    struct Acquisition: Decodable, Sendable {
        /// Added with the other facts: each dropped alone, not with the credit line, when of another type.
        var method: Tolerant<String>?
        /// `1808-01-01T00:00:00`.
        var date: Tolerant<String>?
        var creditLine: FlexibleText?
    }

    struct Maker: Decodable, Sendable {
        // Each read as its digits when a number, dropped alone when of another type: not the whole maker.
        var name: FlexibleText?
        /// The name as an index files it: `Rijn, Rembrandt van`.
        var unFixedName: FlexibleText?
        var dateOfBirth: FlexibleText?
        var dateOfDeath: FlexibleText?
        /// Dropped alone, not with the whole list of makers, when of another type or a number (no place).
        var placeOfBirth: Tolerant<String>?
        var roles: TolerantList<String>?
        var occupation: TolerantList<String>?
    }

    struct Dating: Decodable, Sendable {
        /// `c. 1669`, `1642`: the date as the museum shows it.
        var presentingDate: Tolerant<String>?
        var yearEarly: FlexibleYear?
        var yearLate: FlexibleYear?
    }

    struct Classification: Decodable, Sendable {
        /// Iconclass's words for what the object shows (its codes are in `iconClassIdentifier`, not read).
        var iconClassDescription: [String?]?
    }

    /// What the detail shape says about the object; the list shape gives none of it, and then the details are
    /// only the year read from the date.
    func details(maker: String?, date: String?, culture: String = "en") -> ObjectDetails {
        // The English answer carries the Dutch plaque too: the one in the answer's language first.
        let plaques = culture == "nl" ? [plaqueDescriptionDutch, plaqueDescriptionEnglish] : [plaqueDescriptionEnglish]
        var details = ObjectDetails(
            description: DetailText.block(description?.value) ?? plaques.lazy.compactMap { DetailText.block($0?.value) }
                .first ?? DetailText.block(label?.value?.description),
            objectType: DetailText.lines((objectTypes?.value ?? []).compactMap { $0 }).first,
            materials: materialList,
            dimensions: dimensionText,
            creditLine: DetailText.line(acquisition?.value?.creditLine?.text),
            place: Self.joined(productionPlaces?.value),
            subjects: DetailText.lines((classification?.value?.iconClassDescription ?? []).compactMap { $0 }),
            makers: makers(maker)
        )
        if let early = dating?.value?.yearEarly?.value {
            let late = dating?.value?.yearLate?.value ?? early
            (details.yearBegin, details.yearEnd) = (min(early, late), max(early, late))
        } else if let range = YearRange.parse(date) {
            (details.yearBegin, details.yearEnd) = range
        }
        if let holder = DetailText.line(copyrightHolder?.value) {
            details.rights = Rights(url: nil, label: holder.hasPrefix("©") ? holder : "© " + holder, isOpen: false)
        }
        // `loan, 1808`: how and when the museum acquired it.
        let acquired = [
            DetailText.line(acquisition?.value?.method?.value),
            DetailText.line(acquisition?.value?.date?.value).map { $0.prefix { $0 != "-" && $0 != "T" }.description },
        ].compactMap { $0 }.filter { !$0.isEmpty }
        details.addFact("Acquisition", acquired.isEmpty ? nil : acquired.joined(separator: ", "))
        return details
    }

    /// `materials` then `techniques`, else `physicalMedium` (`olieverf op doek`).
    private var materialList: [String] {
        let listed = DetailText.lines(((materials?.value ?? []) + (techniques?.value ?? [])).compactMap { $0 })
        return listed.isEmpty ? DetailText.line(physicalMedium?.value).map { [$0] } ?? [] : listed
    }

    /// `hoogte 379,5 cm × breedte 453,5 cm`, else `subTitle` (`h 379,5cm × b 453,5cm`).
    private var dimensionText: String? {
        let parts = (dimensions?.value ?? []).compactMap { dimension -> String? in
            guard let dimension, let value = DetailText.line(dimension.value?.text) else { return nil }
            let measure = [DetailText.line(dimension.type?.text), value, DetailText.line(dimension.unit?.text)]
                .compactMap { $0 }.joined(separator: " ")
            return DetailText.line(dimension.part?.text).map { "\($0): \(measure)" } ?? measure
        }
        return parts.isEmpty ? DetailText.line(subTitle?.value) : parts.joined(separator: " × ")
    }

    /// `principalMakers`, the object's own maker first; only that maker's name when the list is absent.
    private func makers(_ maker: String?) -> [ObjectDetails.Maker] {
        var makers = (principalMakers?.value ?? []).compactMap { entry -> ObjectDetails.Maker? in
            guard let entry, let name = DetailText.line(entry.name?.text) else { return nil }
            let lifeDates = DetailText.lifeDates(
                born: DetailText.line(entry.dateOfBirth?.text), died: DetailText.line(entry.dateOfDeath?.text),
                place: DetailText.line(entry.placeOfBirth?.value).flatMap { $0.allSatisfy(\.isNumber) ? nil : $0 })
            let role =
                DetailText.lines((entry.roles?.value ?? []).compactMap { $0 }).first
                ?? DetailText.lines((entry.occupation?.value ?? []).compactMap { $0 }).first
            return ObjectDetails.Maker(
                name: name, role: role, lifeDates: lifeDates, sortName: DetailText.line(entry.unFixedName?.text))
        }
        guard let own = DetailText.line(maker) else { return makers }
        if let index = makers.firstIndex(where: { $0.name == own }) {
            makers.insert(makers.remove(at: index), at: 0)
        } else {
            makers.insert(ObjectDetails.Maker(name: own), at: 0)
        }
        return makers
    }

    private static func joined(_ values: [String?]?) -> String? {
        let kept = DetailText.lines((values ?? []).compactMap { $0 })
        return kept.isEmpty ? nil : kept.joined(separator: ", ")
    }
}
