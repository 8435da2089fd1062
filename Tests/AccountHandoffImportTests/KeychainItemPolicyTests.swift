import AccountHandoffImport
import Testing

/// The Keychain item policy: the receiver's default item, and every rule of the keychain
/// notes, each rejected with the violation that names it.
@Suite struct KeychainItemPolicyTests {
    static let namespace = try! KeychainServiceNamespace(base: "com.example.mail.account-password", version: 1)
    static let account = LocalAccountID(rawValue: "6f1c2b9a-4d3e-4f5a-8b7c-1d2e3f405162")!
    static let teamGroup = "A1B2C3D4E5.com.example.mail.shared"

    @Test func defaultMacOSItemIsDeviceBoundNeverSyncedInTheDataProtectionKeychain() throws {
        let policy = try KeychainItemPolicy.deviceBound(namespace: Self.namespace, platform: .macOS)
        #expect(policy.accessibility == .afterFirstUnlockThisDeviceOnly)
        #expect(!policy.synchronizable)
        #expect(policy.usesDataProtectionKeychain)
        #expect(policy.accessGroup == nil)
        let item = policy.activeItem(for: Self.account)
        #expect(item.itemClass == "genericPassword")
        #expect(item.service == "com.example.mail.account-password.v1")
        #expect(item.account == Self.account.rawValue)
        #expect(item.accessGroup == nil)
        #expect(item.synchronizable == false)
        #expect(item.usesDataProtectionKeychain)
        #expect(item.accessibility == .afterFirstUnlockThisDeviceOnly)
    }

    @Test func iOSItemsNeedNoDataProtectionFlag() throws {
        let policy = try KeychainItemPolicy.deviceBound(namespace: Self.namespace, platform: .iOSFamily)
        #expect(!policy.activeItem(for: Self.account).usesDataProtectionKeychain)
    }

    @Test(arguments: KeychainPlatform.allCases)
    func sharedItemsNameTheFullTeamGroupOnEveryQuery(platform: KeychainPlatform) throws {
        let policy = try KeychainItemPolicy.deviceBound(namespace: Self.namespace, sharedAccessGroup: Self.teamGroup, platform: platform)
        let staged = try #require(StagedCredential(name: "staged-1"))
        for query in [policy.activeItem(for: Self.account), policy.stagedItem(staged), policy.allActiveItems, policy.allStagedItems] {
            #expect(query.accessGroup == Self.teamGroup)
            #expect(query.synchronizable == false)
        }
    }

    @Test func stagedItemsLiveInTheirOwnVersionedService() throws {
        let policy = try KeychainItemPolicy.deviceBound(namespace: Self.namespace, platform: .iOSFamily)
        let staged = try #require(StagedCredential(name: "staged-abc"))
        #expect(policy.stagedItem(staged).service == "com.example.mail.account-password.v1.staging")
        #expect(policy.stagedItem(staged).account == "staged-abc")
        #expect(policy.allStagedItems.account == nil)
        #expect(try KeychainServiceNamespace(base: "com.example.mail.account-password", version: 2).activeService
                == "com.example.mail.account-password.v2")
    }

    @Test(arguments: KeychainAccessibility.allCases.filter(\.isThisDeviceOnly))
    func synchronizableWithAThisDeviceOnlyClassIsRejected(accessibility: KeychainAccessibility) {
        #expect(throws: KeychainPolicyViolation.synchronizableWithThisDeviceOnly(accessibility)) {
            try KeychainItemPolicy(namespace: Self.namespace, accessibility: accessibility, synchronizable: true,
                                   usesDataProtectionKeychain: true, accessGroup: nil, platform: .iOSFamily)
        }
    }

    @Test(arguments: [KeychainAccessibility.afterFirstUnlock, .whenUnlocked])
    func synchronizableIsNeverAllowedInTheDeviceBoundNamespace(accessibility: KeychainAccessibility) {
        #expect(throws: KeychainPolicyViolation.synchronizableInDeviceBoundNamespace) {
            try KeychainItemPolicy(namespace: Self.namespace, accessibility: accessibility, synchronizable: true,
                                   usesDataProtectionKeychain: true, accessGroup: nil, platform: .macOS)
        }
    }

    @Test(arguments: ["com.example.vault", "$(AppIdentifierPrefix)com.example.vault", "a1b2c3d4e5.com.example.vault",
                      "A1B2C3D4E.com.example.vault", "A1B2C3D4E5.", "A1B2C3D4E5com.example", "group."])
    func accessGroupWithoutTheTeamIDPrefixIsRejected(group: String) {
        for platform in KeychainPlatform.allCases where !(platform == .macOS && group.hasPrefix("group.")) {
            #expect(throws: KeychainPolicyViolation.accessGroupWithoutTeamIDPrefix(group)) {
                try KeychainItemPolicy.deviceBound(namespace: Self.namespace, sharedAccessGroup: group, platform: platform)
            }
        }
    }

    @Test func macOSAccessGroupOutsideTheDataProtectionKeychainIsRejected() {
        #expect(throws: KeychainPolicyViolation.accessGroupWithoutDataProtectionKeychainOnMacOS(Self.teamGroup)) {
            try KeychainItemPolicy(namespace: Self.namespace, accessibility: .afterFirstUnlockThisDeviceOnly, synchronizable: false,
                                   usesDataProtectionKeychain: false, accessGroup: Self.teamGroup, platform: .macOS)
        }
        #expect(KeychainItemPolicy.violations(accessibility: .afterFirstUnlockThisDeviceOnly, synchronizable: false,
                                              usesDataProtectionKeychain: false, accessGroup: Self.teamGroup, platform: .macOS)
                == [.accessGroupWithoutDataProtectionKeychainOnMacOS(Self.teamGroup), .fileBasedKeychainOnMacOS])
    }

    @Test func appGroupAsKeychainGroupIsRejectedOnMacOSOnly() throws {
        let appGroup = "group.com.example.suite"
        #expect(throws: KeychainPolicyViolation.appGroupAsKeychainGroupOnMacOS(appGroup)) {
            try KeychainItemPolicy.deviceBound(namespace: Self.namespace, sharedAccessGroup: appGroup, platform: .macOS)
        }
        // iOS may name an app group explicitly as an access group.
        let iOS = try KeychainItemPolicy.deviceBound(namespace: Self.namespace, sharedAccessGroup: appGroup, platform: .iOSFamily)
        #expect(iOS.activeItem(for: Self.account).accessGroup == appGroup)
    }

    @Test func macOSItemOutsideTheDataProtectionKeychainIsRejected() {
        #expect(throws: KeychainPolicyViolation.fileBasedKeychainOnMacOS) {
            try KeychainItemPolicy(namespace: Self.namespace, accessibility: .afterFirstUnlockThisDeviceOnly, synchronizable: false,
                                   usesDataProtectionKeychain: false, accessGroup: nil, platform: .macOS)
        }
    }

    @Test func everyViolationOfOneCombinationIsListed() {
        let all = KeychainItemPolicy.violations(accessibility: .whenUnlockedThisDeviceOnly, synchronizable: true,
                                                usesDataProtectionKeychain: false, accessGroup: "com.example.vault", platform: .macOS)
        #expect(all == [.synchronizableWithThisDeviceOnly(.whenUnlockedThisDeviceOnly), .synchronizableInDeviceBoundNamespace,
                        .accessGroupWithoutTeamIDPrefix("com.example.vault"),
                        .accessGroupWithoutDataProtectionKeychainOnMacOS("com.example.vault"), .fileBasedKeychainOnMacOS])
    }

    @Test func unscopedDeletesAreRejected() throws {
        let policy = try KeychainItemPolicy.deviceBound(namespace: Self.namespace, platform: .iOSFamily)
        #expect(throws: KeychainPolicyViolation.unscopedDelete(missing: [.service])) {
            try policy.deleteQuery(service: nil, account: "x")
        }
        #expect(throws: KeychainPolicyViolation.unscopedDelete(missing: [.account])) {
            try policy.deleteQuery(service: Self.namespace.activeService, account: nil)
        }
        #expect(throws: KeychainPolicyViolation.unscopedDelete(missing: [.service, .account])) {
            try policy.deleteQuery(service: nil, account: nil)
        }
        #expect(throws: KeychainPolicyViolation.unscopedDelete(missing: [.service, .account])) {
            try policy.deleteQuery(service: "", account: "")
        }
        let scoped = try policy.deleteQuery(service: Self.namespace.activeService, account: Self.account.rawValue)
        #expect(scoped == policy.activeItem(for: Self.account))
    }

    @Test(arguments: [("", 1), (".com.example", 1), ("com.example.", 1), ("com example", 1), ("com/example", 1), ("com.example", 0)])
    func invalidServiceNamespacesAreRejected(base: String, version: Int) {
        #expect(throws: KeychainPolicyViolation.invalidServiceNamespace(base)) {
            try KeychainServiceNamespace(base: base, version: version)
        }
    }

    @Test func everyRuleHasItsOwnIdentifierAndASentenceNamingIt() {
        let violations: [KeychainPolicyViolation] = [
            .synchronizableWithThisDeviceOnly(.afterFirstUnlockThisDeviceOnly), .synchronizableInDeviceBoundNamespace,
            .accessGroupWithoutTeamIDPrefix("g"), .accessGroupWithoutDataProtectionKeychainOnMacOS("g"),
            .appGroupAsKeychainGroupOnMacOS("group.g"), .fileBasedKeychainOnMacOS, .unscopedDelete(missing: [.service]),
            .invalidServiceNamespace("x"), .platformMismatch(policy: .macOS, running: .iOSFamily),
        ]
        #expect(Set(violations.map(\.rule)).count == violations.count)
        for violation in violations {
            #expect(violation.description.contains("(rule \(violation.rule))"))
            #expect(violation.description.hasSuffix("."))
        }
    }
}
