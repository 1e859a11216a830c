/// The wells model and mapping.
extension _WellsDataSet {
    /// Each `wells.csv` column as an attribute, named exactly as the header.
    static let wellAttributes: [_GeneratedModel.Attribute] = [
        .init(name: "uwi", type: "String", optional: false, indexed: true),
        .init(name: "well_name", type: "String", optional: false, indexed: true),
        .init(name: "operator_id", type: "Integer 32", optional: false),
        .init(name: "field_name", type: "String"),
        .init(name: "province_state", type: "String", optional: false),
        .init(name: "status", type: "String", optional: false),
        .init(name: "well_type", type: "String", optional: false),
        .init(name: "formation", type: "String"),
        .init(name: "surface_latitude", type: "Double", optional: false),
        .init(name: "surface_longitude", type: "Double", optional: false),
        .init(name: "bottom_latitude", type: "Double"),
        .init(name: "bottom_longitude", type: "Double"),
        .init(name: "ground_elevation", type: "Double"),
        .init(name: "kb_elevation", type: "Double"),
        .init(name: "total_depth", type: "Double"),
        .init(name: "spud_date", type: "Date"),
        .init(name: "completion_date", type: "Date"),
        .init(name: "licence_number", type: "String"),
        .init(name: "directional_flag", type: "Boolean", optional: false, defaultValue: false),
        .init(name: "comments", type: "String"),
    ]

    static let model: _GeneratedModel = {
        let model = _GeneratedModel(entities: [
            .init(
                name: "Operator",
                attributes: [
                    .init(name: "operator_id", type: "Integer 32", optional: false, indexed: true),
                    .init(name: "name", type: "String", optional: false),
                    .init(name: "short_name", type: "String"),
                    .init(name: "country", type: "String"),
                    .init(name: "phone", type: "String"),
                ],
                relationships: [
                    .init(
                        name: "wells", destination: "Well", inverse: "operator", toMany: true,
                        deleteRule: "Deny"),
                    .init(
                        name: "wellDetails", destination: "WellDetail", inverse: "operator", toMany: true,
                        deleteRule: "Nullify"),
                ]),
            .init(
                name: "Well",
                attributes: wellAttributes,
                relationships: [
                    .init(name: "operator", destination: "Operator", inverse: "wells", deleteRule: "Nullify")
                ]),
            .init(
                name: "WellSummary",
                attributes: wellAttributes.filter { summaryColumns.contains($0.name) },
                relationships: [
                    .init(
                        name: "details", destination: "WellDetail", inverse: "summary", deleteRule: "Cascade")
                ]),
            .init(
                name: "WellDetail",
                attributes: wellAttributes.filter { $0.name == "uwi" || !summaryColumns.contains($0.name) },
                relationships: [
                    .init(
                        name: "summary", destination: "WellSummary", inverse: "details", deleteRule: "Nullify"
                    ),
                    .init(
                        name: "operator", destination: "Operator", inverse: "wellDetails",
                        deleteRule: "Nullify"),
                ]),
        ])
        model.validate()
        return model
    }()

    /// Operators first; then every well into `Well`; then every well again
    /// into `WellSummary` + `WellDetail`, one row filling both.
    static let mapping: _OrderedJSON = {
        let dates: _OrderedJSON = [
            "spud_date": ["column": "spud_date", "format": "yyyy-MM-dd"],
            "completion_date": ["column": "completion_date", "format": "yyyy-MM-dd"],
        ]
        let operatorLink: _OrderedJSON = [
            "operator": ["column": "operator_id", "destinationKey": "operator_id"]
        ]
        return [
            "format": 1,
            "model": "wells.model.json",
            "defaults": DataSetGenerator.mappingDefaults,
            "files": [
                [
                    "path": "operators.csv",
                    "targets": [["entity": "Operator", "key": "operator_id"]],
                ],
                [
                    "path": "wells.csv",
                    "targets": [
                        ["entity": "Well", "key": "uwi", "columns": dates, "relationships": operatorLink]
                    ],
                ],
                [
                    "path": "wells.csv",
                    "targets": [
                        ["entity": "WellSummary", "key": "uwi"],
                        [
                            "entity": "WellDetail", "key": "uwi",
                            "link": ["relationship": "summary", "target": "WellSummary"],
                            "columns": dates,
                            "relationships": operatorLink,
                        ],
                    ],
                ],
            ],
        ]
    }()
}
