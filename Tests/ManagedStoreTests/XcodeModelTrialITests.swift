import Foundation
import Testing
@testable import ManagedStore

/// A user trial (an iOS developer) on Xcode models: a transient attribute of type Undefined made the
/// model unusable, a composite attribute got a bare "unknown type", and a relationship without an
/// inverse was reported only once the other problems were fixed, with an inaccurate reason.
@Suite struct XcodeModelTrialITests {
    func problems(_ xml: String) -> [String] {
        do {
            _ = try ObjectModel(xcdatamodelXML: Data(xml.utf8))
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("a transient attribute is left out whatever its type, Undefined included")
    func transientUndefined() throws {
        let model = try ObjectModel(xcdatamodelXML: Data(#"""
            <model><entity name="Place"><attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="scratch" optional="YES" transient="YES" attributeType="Undefined"/></entity></model>
            """#.utf8))
        #expect(model.entity(named: "Place")?.attributes.map(\.name) == ["name"])
        // Stored, Undefined is a type Xcode allows only for transient attributes: said so.
        let stored = problems(#"""
            <model><entity name="Place"><attribute name="scratch" optional="YES" attributeType="Undefined"/></entity></model>
            """#)
        #expect(stored == ["Place.scratch: the type is Undefined, which Xcode allows only for transient attributes (never stored): give it a type, or mark it transient"],
                "\(stored)")
    }

    @Test("a composite attribute is refused with what to do, and the composite's own attributes go to no entity")
    func composite() {
        let found = problems(#"""
            <model><entity name="Place"><attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="location" optional="YES" attributeType="Composite" composite="Location"/></entity>
            <entity name="Visit"><attribute name="at" optional="YES" attributeType="Date"/></entity>
            <composite name="Location"><attribute name="lat" optional="YES" attributeType="Double"/>
            <attribute name="lon" optional="YES" attributeType="Double"/></composite></model>
            """#)
        #expect(found == ["Place.location: composite attributes (Location) are not supported: Core Data stores them in a layout of its own, which SeedStore does not write; in a copy of the model, replace it with plain attributes and import their values"],
                "\(found)")
        let plain = try? ObjectModel(xcdatamodelXML: Data(#"""
            <model><entity name="Visit"><attribute name="at" optional="YES" attributeType="Date"/></entity>
            <composite name="Location"><attribute name="lat" optional="YES" attributeType="Double"/></composite></model>
            """#.utf8))
        #expect(plain?.entity(named: "Visit")?.attributes.map(\.name) == ["at"], "lat is the composite's, not Visit's")
    }

    @Test("a relationship without an inverse is reported with the other problems, and the message says what an inverse changes")
    func missingInverseInTheSameRound() {
        let found = problems(#"""
            <model><entity name="Place"><attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="count" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="visits.@count"/>
            <relationship name="visits" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Visit"/>
            <fetchIndex name="byName"><fetchIndexElement property="name" type="Binary" order="ascending"/></fetchIndex></entity>
            <entity name="Visit"><attribute name="at" optional="YES" attributeType="Date"/></entity></model>
            """#)
        #expect(found.count == 3, "\(found)")
        #expect(found.contains { $0.hasPrefix("Place.count: derived attributes are not supported") })
        #expect(found.contains { $0.hasPrefix("Place: fetch indexes (byName) are not built here") })
        #expect(found.contains("Place.visits: the relationship has no inverse, which SeedStore requires to keep both sides consistent: give it one on Visit. Core Data allows none (Xcode warns), but an inverse changes the store's layout (a to-one inverse adds a foreign-key column to ZVISIT), so the app's model must get the same inverse"),
                "\(found)")
        #expect(!found.contains { $0.contains("Core Data needs inverses") })
    }
}
