// SeedImport module.
