import VitrineCore

/// A source's command-line name (`--source aic`). Each adapter declares its own in its folder
/// (`extension SourceID { package static let aic: SourceID = "aic" }`), so adding a source touches no shared list
/// but the registry's.
package struct SourceID: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    package var rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    package init(stringLiteral value: String) {
        self.rawValue = value
    }

    package var description: String { rawValue }
}

/// How the registry knows a source: what `vitrine sources` says of it, and how to build it from the command line.
package struct SourceRegistration: Sendable {
    /// Builds the source and the transport that reaches it.
    package typealias Make =
        @Sendable (SourceConfiguration, SourceEnvironment) throws(ExportError) -> (
            source: any CollectionSource, transport: any Transport
        )

    package var descriptor: SourceDescriptor
    package var make: Make

    package init(descriptor: SourceDescriptor, make: @escaping Make) {
        self.descriptor = descriptor
        self.make = make
    }

    /// A network source, reached through the environment's HTTP transport.
    package init(
        descriptor: SourceDescriptor,
        source: @escaping @Sendable (SourceConfiguration, [String: String]) throws(ExportError) -> any CollectionSource
    ) {
        self.init(descriptor: descriptor) { configuration, environment throws(ExportError) in
            (try source(configuration, environment.variables), environment.http)
        }
    }
}

/// What a source may take from outside when it is built: environment variables (keys) and the HTTP transport.
package struct SourceEnvironment: Sendable {
    package var variables: [String: String]
    package var http: any Transport

    package init(variables: [String: String], http: any Transport) {
        self.variables = variables
        self.http = http
    }
}
