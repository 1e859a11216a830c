// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "SeedStore",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ManagedStore", targets: ["ManagedStore"]),
        .library(name: "CSVStream", targets: ["CSVStream"]),
        .library(name: "SeedImport", targets: ["SeedImport"]),
        .library(name: "FetchBench", targets: ["FetchBench"]),
        .executable(name: "seedstore", targets: ["seedstore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // System libraries: the only places the C APIs enter the package.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CLibCSV",
            providers: [.apt(["libcsv-dev"])]
        ),

        // The engine: model, SQLite store in Core Data's layout, context, fetching.
        .target(
            name: "ManagedStore",
            dependencies: ["CSQLite"]
        ),
        // Streaming CSV reader over libcsv.
        .target(
            name: "CSVStream",
            dependencies: ["CLibCSV"]
        ),
        // Timing, statistics, speed checks against raw references, text tables.
        .target(
            name: "Measure",
            dependencies: ["CSQLite"]
        ),
        // CSV -> seed store: mapping, conversion, relationships, batched saves, generators.
        // Its raw reference loader alone calls libcsv and sqlite3 directly, as a floor to compare with.
        .target(
            name: "SeedImport",
            dependencies: ["ManagedStore", "CSVStream", "Measure", "CSQLite", "CLibCSV"]
        ),
        // Fetch-strategy scenarios, runner, reports, baselines.
        .target(
            name: "FetchBench",
            dependencies: ["ManagedStore", "Measure", "CSQLite"]
        ),
        .executableTarget(
            name: "seedstore",
            dependencies: [
                "ManagedStore", "CSVStream", "SeedImport", "FetchBench", "Measure",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(
            name: "ManagedStoreTests",
            dependencies: [
                "ManagedStore", "CSQLite",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "CSVStreamTests",
            dependencies: [
                "CSVStream",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "SeedImportTests",
            dependencies: [
                "SeedImport", "ManagedStore", "CSVStream", "Measure",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "FetchBenchTests",
            dependencies: ["FetchBench", "ManagedStore", "Measure"]
        ),
        .testTarget(
            name: "SeedStoreCLITests",
            dependencies: ["ManagedStore"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
