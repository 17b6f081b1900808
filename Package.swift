// swift-tools-version:6.1
import PackageDescription

/// Settings shared by every target.
let swiftSettings: [SwiftSetting] = [
    // SE-0335: spell out `any` for existential types, so their cost is visible.
    .enableUpcomingFeature("ExistentialAny"),
    // SE-0444: a file sees only the modules it imports itself.
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Vitrine",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "vitrine", targets: ["VitrineCLI"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The collection store: SQLite (Debian's libsqlite3-dev) with migrations, WAL and typed errors.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The configuration file of a nightly job (vitrine.yaml, or JSON): YAML 1.2.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // Tests only: a CSV reader to check our CSV.
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
    ],
    targets: [
        // Models, Interactor, Presenter, Worker and the boundary protocols. No I/O of its own.
        .target(
            name: "VitrineCore",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // libxml2's streaming (SAX2) parser, for OAI-PMH: Debian's libxml2-dev.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // One atomic swap of two folders (`renameat2(RENAME_EXCHANGE)`), for the output's commit.
        .target(name: "CFolderExchange"),
        // The running executable's build id (ELF note, Mach-O UUID): part of every kept page's fingerprint.
        .target(name: "CBuildIdentity"),
        // The C allocator told to give freed memory back (glibc), for the export's peak memory.
        .target(name: "CAllocatorTuning"),
        // Small file-system helpers the output folder, the store and the page cache share: a lock taken without
        // waiting, files written without an fsync each.
        .target(name: "VitrineFiles", swiftSettings: swiftSettings),
        // The output folder: a catalog staged beside it, then exchanged with it whole; the manifest of the files
        // Vitrine owns there; user files carried over. Its own module, so nothing else reaches its internals.
        .target(
            name: "VitrineOutput",
            dependencies: ["CFolderExchange", "VitrineCore", "VitrineFiles"],
            swiftSettings: swiftSettings
        ),
        // One adapter per JSON API, the bundled demo collection and the adapter kit. No HTTP: adapters describe
        // requests and read responses; the transport sends them.
        .target(
            name: "VitrineSources",
            dependencies: ["VitrineCore", "VitrineFiles", "CLibXML2"],
            resources: [.embedInCode("Demo/pages"), .embedInCode("Demo/images")],
            swiftSettings: swiftSettings
        ),
        // The HTTP transport (AsyncHTTPClient): timeouts, same-host redirects, Basic authentication.
        .target(
            name: "VitrineHTTP",
            dependencies: [
                "VitrineCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // OAI-PMH (the Rijksmuseum and any repository): libxml2's streaming reader, the record collector, mappers.
        // A module of its own so that JSON adapters and their tests do not link libxml2.
        .target(
            name: "VitrineOAIPMH",
            dependencies: ["VitrineCore", "VitrineSources", "CLibXML2"],
            swiftSettings: swiftSettings
        ),
        // The collection store: one SQLite database per collection, in the cache folder (GRDB).
        .target(
            name: "VitrineStore",
            dependencies: [
                "VitrineCore", "VitrineFiles", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, which GRDB itself calls: rows are bound and read through it (see `ObjectRow`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // The default templates and assets, embedded in the binary.
        .target(
            name: "VitrineTemplates",
            path: "Templates",
            exclude: ["README.md"],
            resources: [.embedInCode("html"), .embedInCode("markdown")],
            swiftSettings: swiftSettings
        ),
        // HTML, Markdown, CSV and terminal displays, written into the output folder.
        .target(
            name: "VitrineDisplays",
            dependencies: [
                "CAllocatorTuning",
                "CBuildIdentity",
                "VitrineCore",
                "VitrineOutput",
                "VitrineTemplates",
            ],
            swiftSettings: swiftSettings
        ),
        // The configurator: the source registry and the scene built from one settings value.
        .target(
            name: "VitrineScene",
            dependencies: [
                "VitrineCore",
                "VitrineSources",
                "VitrineHTTP",
                "VitrineOAIPMH",
                "VitrineDisplays",
                "VitrineOutput",
                "VitrineStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The `vitrine` command: argument parsing only; ExportScene does the wiring.
        .executableTarget(
            name: "VitrineCLI",
            dependencies: [
                "CAllocatorTuning",
                .product(name: "Yams", package: "Yams"),
                "VitrineCore",
                "VitrineSources",
                "VitrineHTTP",
                "VitrineScene",
                "VitrineDisplays",
                "VitrineOutput",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // A museum API imitation on 127.0.0.1 for tests (and, later, benchmarks).
        .target(
            name: "VitrineMockMuseum",
            dependencies: [
                "VitrineTestSupport",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/MockMuseum",
            swiftSettings: swiftSettings
        ),
        // What every test target shares: seeds, spies, stubs, fixtures (read from Tests/Fixtures), temporary folders.
        .target(
            name: "VitrineTestSupport",
            dependencies: ["VitrineCore", "VitrineDisplays"],
            path: "Tests/Support",
            swiftSettings: swiftSettings
        ),
        // Unit tests: no sockets, no processes, no libxml2, no file system beyond a temporary file; seconds.
        // `swift test --filter VitrineUnitTests`.
        .testTarget(
            name: "VitrineUnitTests",
            dependencies: [
                "CAllocatorTuning",
                "VitrineCore",
                "VitrineSources",
                "VitrineDisplays",
                "VitrineHTTP",
                "VitrineStore",
                "VitrineTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CSV", package: "CSV.swift"),
            ],
            path: "Tests/VitrineUnitTests",
            swiftSettings: swiftSettings
        ),
        // Integration tests: the output folder, the displays writing whole catalogs, the collection store and the
        // page cache, on temporary folders. `swift test --filter VitrineIntegrationTests`.
        .testTarget(
            name: "VitrineIntegrationTests",
            dependencies: [
                "CFolderExchange",
                "VitrineCore",
                "VitrineFiles",
                "VitrineSources",
                "VitrineDisplays",
                "VitrineOutput",
                "VitrineStore",
                "VitrineTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CSV", package: "CSV.swift"),
            ],
            path: "Tests/VitrineIntegrationTests",
            exclude: ["Snapshots"],
            swiftSettings: swiftSettings
        ),
        // The OAI-PMH reader and source against recorded pages. `swift test --filter VitrineOAIPMHTests`.
        .testTarget(
            name: "VitrineOAIPMHTests",
            dependencies: [
                "VitrineCore", "VitrineSources", "VitrineOAIPMH", "VitrineFuzzTargets", "VitrineTestSupport",
            ],
            path: "Tests/VitrineOAIPMHTests",
            swiftSettings: swiftSettings
        ),
        // End to end: whole exports through AsyncHTTPClient to the loopback mock museum, and the built `vitrine`
        // binary. `swift test --filter VitrineEndToEndTests`.
        .testTarget(
            name: "VitrineEndToEndTests",
            dependencies: [
                "VitrineCore",
                "VitrineFiles",
                "VitrineOutput",
                "VitrineSources",
                "VitrineOAIPMH",
                "VitrineHTTP",
                "VitrineScene",
                "VitrineDisplays",
                "VitrineMockMuseum",
                "VitrineTestSupport",
                // Built so the command-line tests can run the real binary.
                "VitrineCLI",
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "Logging", package: "swift-log"),
                // To turn a store into one an earlier version left (the upgrade test).
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/VitrineEndToEndTests",
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The benchmark builds only when asked, as Hummingbird's do:
// `VITRINE_BENCHMARKS=1 swift run -c release vitrine-benchmark` (after `swift build -c release --product vitrine`,
// whose binary it runs for the whole-export figures). It fails when a figure misses its documented target.
if Context.environment["VITRINE_BENCHMARKS"] != nil {
    package.products.append(.executable(name: "vitrine-benchmark", targets: ["VitrineBenchmark"]))
    package.targets.append(
        .executableTarget(
            name: "VitrineBenchmark",
            dependencies: [
                "VitrineCore", "VitrineSources", "VitrineOAIPMH", "VitrineScene", "VitrineStore", "VitrineDisplays",
                "VitrineOutput", "VitrineMockMuseum", "VitrineTestSupport",
            ],
            path: "Benchmarks/VitrineBenchmark",
            swiftSettings: swiftSettings
        ))
}

// What the fuzz targets exercise, always built so the tests can replay inputs that once crashed.
package.targets.append(
    .target(
        name: "VitrineFuzzTargets", dependencies: ["VitrineCore", "VitrineSources", "VitrineOAIPMH"],
        path: "Fuzz/Targets", swiftSettings: swiftSettings))

// libFuzzer targets, built only when asked (`Scripts/fuzz.sh` does it, with `-sanitize=fuzzer,address`): the
// OAI-PMH reader, every JSON payload decoder, and the small text parsers. They link no HTTP client.
if Context.environment["VITRINE_FUZZ"] != nil {
    package.targets.append(.target(name: "VitrineFuzzDriver", path: "Fuzz/Driver", swiftSettings: swiftSettings))
    for (name, folder) in [
        ("vitrine-fuzz-oaipmh", "OAIPMHReader"), ("vitrine-fuzz-json", "JSONPayloads"),
        ("vitrine-fuzz-text", "TextParsers"),
    ] {
        let dependencies: [Target.Dependency] = ["VitrineFuzzTargets", "VitrineFuzzDriver"]
        package.targets.append(
            .executableTarget(
                name: name, dependencies: dependencies, path: "Fuzz/\(folder)", swiftSettings: swiftSettings))
    }
}
