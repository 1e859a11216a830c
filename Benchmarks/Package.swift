// swift-tools-version:6.1
import PackageDescription

// SeedStore's own package-benchmark suites, a package of their own so that the root package's build and
// tests never pay for package-benchmark. From this directory:
//
//     swift package --allow-writing-to-package-directory benchmark
//
// README.md has the baseline commands and the thresholds.
let package = Package(
    name: "SeedStoreBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        // package-benchmark lives at ordo-one/benchmark now (identity `benchmark`; its manifest names it
        // "Benchmark"); the old ordo-one/package-benchmark URL still resolves but its plugin warns about it.
        // No jemalloc here: malloc metrics come from the interposer trait alone.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // Named, so products resolve whatever the checkout's directory is called.
        .package(name: "SeedStore", path: "../"),
    ],
    targets: [
        // What the suites share: SeedStore's counters as custom metrics, thresholds, the wells fixture.
        .target(
            name: "BenchSupport",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ManagedStore", package: "SeedStore"),
                .product(name: "SeedImport", package: "SeedStore"),
            ],
            path: "Support"
        ),
        .executableTarget(
            name: "ImportThroughput",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchSupport",
                .product(name: "ManagedStore", package: "SeedStore"),
                .product(name: "SeedImport", package: "SeedStore"),
                .product(name: "CSVStream", package: "SeedStore"),
            ],
            path: "ImportThroughput",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "FetchStrategies",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchSupport",
                .product(name: "ManagedStore", package: "SeedStore"),
            ],
            path: "FetchStrategies",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Save",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchSupport",
                .product(name: "ManagedStore", package: "SeedStore"),
            ],
            path: "Save",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
