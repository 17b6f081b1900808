import Foundation
import VitrineCore

/// One OAI-PMH response as the streaming parser reads it.
package struct OAIPMHResponse: Sendable, Equatable {
    /// One `<record>`: its header, and the fields Vitrine reads of its metadata.
    package struct Record: Sendable, Equatable {
        package var identifier: String
        package var datestamp: String?
        /// `<header status="deleted">`.
        package var isDeleted: Bool
        /// The sets the header names.
        package var sets: [String]
        package var fields: OAIRecordFields

        init(_ fields: OAIRecordFields) {
            self.identifier = fields.string(fields.identifier) ?? ""
            self.datestamp = fields.string(fields.datestamp)
            self.isDeleted = fields.isDeleted
            self.sets = fields.setSpecs.compactMap { fields.string($0) }
            self.fields = fields
        }
    }

    /// The records, when parsed without a mapper.
    package var records: [Record] = []
    /// What each record maps to, when parsed with a mapper (`records` then stays empty).
    package var outcomes: [RecordOutcome] = []
    /// How many of them were listed outside the mapper's `--set` (`OAIRecordMapper.isOutsideSet`).
    package var outsideSet = 0
    /// The `<resumptionToken>`'s text; `nil` when the element is absent or empty (the end of the list).
    package var resumptionToken: String?
    /// `completeListSize`, when the server sends it.
    package var completeListSize: Int?
    /// An OAI-PMH `<error code="…">message</error>`.
    package var error: (code: String, message: String)?
    /// `<responseDate>`: the server's clock when it answered.
    package var responseDate: String?
    /// What an `Identify` answer says; empty for other verbs.
    package var identify = Identify()

    /// The parts of an `Identify` answer a harvest needs.
    package struct Identify: Sendable, Equatable {
        /// The name the repository gives itself, as it writes it.
        package var repositoryName: String?
        /// `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssZ`: what `from` and `until` may hold.
        package var granularity: String?
        package var earliestDatestamp: String?
        /// `no`, `transient` or `persistent`.
        package var deletedRecord: String?
    }

    package static func == (lhs: OAIPMHResponse, rhs: OAIPMHResponse) -> Bool {
        lhs.records == rhs.records && lhs.outcomes == rhs.outcomes && lhs.resumptionToken == rhs.resumptionToken
            && lhs.completeListSize == rhs.completeListSize && lhs.error?.code == rhs.error?.code
            && lhs.error?.message == rhs.error?.message && lhs.responseDate == rhs.responseDate
            && lhs.identify == rhs.identify
    }
}

/// A parse failure's reason, for the source to wrap in a `HarvestFailure`.
package struct OAIPMHParseError: Error, Sendable {
    package var text: String

    package init(_ text: String) {
        self.text = text
    }
}
