import Foundation

/// What the tests ask a running Thunderbird to do through ``Marionette``, with its own account
/// and login managers (never this project's writer).
package enum ThunderbirdScripts {
    /// Sets up an IMAP account over TLS that checks mail at startup, saves its password with
    /// the login manager (which encrypts it with the profile's key database), and writes
    /// prefs.js; answers with the account's key.
    package static func createAccount(host: String, port: UInt16, user: String, password: String, email: String, name: String) -> String {
        """
        const done = arguments[arguments.length - 1];
        (async () => {
          const { MailServices } = ChromeUtils.importESModule("resource:///modules/MailServices.sys.mjs");
          const server = MailServices.accounts.createIncomingServer(\(literal(user)), \(literal(host)), "imap");
          server.port = \(port);
          server.socketType = Ci.nsMsgSocketType.SSL;
          server.authMethod = Ci.nsMsgAuthMethod.passwordCleartext;
          server.setBoolValue("login_at_startup", true);
          const identity = MailServices.accounts.createIdentity();
          identity.fullName = \(literal(name));
          identity.email = \(literal(email));
          const account = MailServices.accounts.createAccount();
          account.incomingServer = server;
          account.addIdentity(identity);
          MailServices.accounts.defaultAccount = account;
          const login = Cc["@mozilla.org/login-manager/loginInfo;1"].createInstance(Ci.nsILoginInfo);
          login.init("imap://" + \(literal(host)), null, "imap://" + \(literal(host)), \(literal(user)), \(literal(password)), "", "");
          await Services.logins.addLoginAsync(login);
          Services.prefs.savePrefFile(null);
          done(account.key);
        })().catch(error => done("error: " + error));
        """
    }

    /// A JavaScript string literal.
    static func literal(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}

/// Trust in a certificate authority for a profile: NSS's `certutil` adds it to the profile's
/// `cert9.db` (making the key database first when the profile has none), as a person does in
/// Thunderbird's certificate manager.
package enum ProfileTrust {
    package static func trust(caFile: URL, in profile: URL) throws(HeadlessThunderbird.Failure) {
        let database = "sql:" + profile.path
        if !FileManager.default.fileExists(atPath: profile.appendingPathComponent("key4.db").path) {
            try run(["-N", "--empty-password", "-d", database])
        }
        try run(["-A", "-n", "AccountHandoff throwaway CA", "-t", "C,,", "-i", caFile.path, "-d", database])
    }

    private static func run(_ arguments: [String]) throws(HeadlessThunderbird.Failure) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/certutil")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw .init(description: "certutil could not start (install libnss3-tools)") }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw .init(description: "certutil \(arguments.first ?? "") failed") }
    }
}
