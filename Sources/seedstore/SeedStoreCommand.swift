import ArgumentParser

@main
struct SeedStoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "seedstore", abstract: "SeedStore")
}
