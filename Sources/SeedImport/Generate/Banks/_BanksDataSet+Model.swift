/// The failed banks model and mapping, after the well-known Core Data
/// "Failed Banks" tutorial model.
extension _BanksDataSet {
    static let model: _GeneratedModel = {
        let model = _GeneratedModel(entities: [
            .init(
                name: "FailedBankInfo",
                attributes: [
                    .init(name: "name", type: "String", optional: false),
                    .init(name: "city", type: "String"),
                    .init(name: "state", type: "String"),
                ],
                relationships: [
                    .init(
                        name: "details", destination: "FailedBankDetails", inverse: "info",
                        deleteRule: "Cascade")
                ]),
            .init(
                name: "FailedBankDetails",
                attributes: [
                    .init(name: "cert", type: "Integer 32", optional: false, indexed: true),
                    .init(name: "closeDate", type: "Date"),
                    .init(name: "updateDate", type: "Date"),
                    .init(name: "acquirer", type: "String"),
                    .init(name: "fund", type: "Integer 32"),
                    .init(name: "zip", type: "Integer 32", defaultValue: 0),
                ],
                relationships: [
                    .init(
                        name: "info", destination: "FailedBankInfo", inverse: "details", deleteRule: "Nullify"
                    ),
                    .init(
                        name: "tags", destination: "Tag", inverse: "bankdetails", toMany: true,
                        deleteRule: "Nullify"),
                ]),
            .init(
                name: "Tag",
                attributes: [.init(name: "name", type: "String", optional: false, indexed: true)],
                relationships: [
                    .init(
                        name: "bankdetails", destination: "FailedBankDetails", inverse: "tags", toMany: true,
                        deleteRule: "Nullify")
                ]),
        ])
        model.validate()
        return model
    }()

    /// `banklist.csv` (Windows-1252) fills `FailedBankDetails`, keyed by
    /// Cert, and `FailedBankInfo` linked to it one-to-one; then the tags and
    /// the many-to-many join. `updateDate` and `zip` have no column in this
    /// format and keep their defaults.
    static let mapping: _OrderedJSON = [
        "format": 1,
        "model": "banks.model.json",
        "defaults": DataSetGenerator.mappingDefaults,
        "files": [
            [
                "path": "banklist.csv",
                "encoding": "windows-1252",
                "targets": [
                    [
                        "entity": "FailedBankDetails",
                        "key": "cert",
                        "columns": [
                            "cert": "Cert",
                            "closeDate": ["column": "Closing Date", "format": "d-MMM-yy", "pivotYear": 2000],
                            "acquirer": "Acquiring Institution",
                            "fund": "Fund",
                        ],
                    ],
                    [
                        "entity": "FailedBankInfo",
                        "link": ["relationship": "details", "target": "FailedBankDetails"],
                        "columns": ["name": "Bank Name", "city": "City", "state": "State"],
                    ],
                ],
            ],
            [
                "path": "tags.csv",
                "targets": [["entity": "Tag", "key": "name"]],
            ],
            [
                "path": "bank_tags.csv",
                "join": [
                    "entity": "FailedBankDetails", "relationship": "tags",
                    "sourceColumn": "cert", "sourceKey": "cert",
                    "destinationColumn": "tag", "destinationKey": "name",
                ],
            ],
        ],
    ]
}
