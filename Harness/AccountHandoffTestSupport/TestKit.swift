// The shipped test kit (the in-memory channel pair, the manual clock, the scripted gate, the
// in-memory importer) is part of this module for the project's own tests and the lab.
@_exported import AccountHandoffTestKit
