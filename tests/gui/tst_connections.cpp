// Saved connections: every field survives a restart, passwords never reach the settings file, and
// without a keychain the dialog says so and falls back to asking every time.
#include "TestPki.h"
#include "TestServer.h"
#include "TestSshServer.h"
#include "models/SavedConnections.h"
#include "redis/Connection.h"
#include "ui/ConnectionDialog.h"
#include "ui/OverlayColours.h"
#include "ui/PasswordVault.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;
using models::ConnectionProfile;

class TestConnections : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString settingsPath() const { return m_dir.filePath(QStringLiteral("keylens.ini")); }

    static ConnectionProfile sample()
    {
        ConnectionProfile profile;
        profile.name = QStringLiteral("staging cache");
        profile.kind = ConnectionProfile::Kind::HostPort;
        profile.host = QStringLiteral("cache.internal");
        profile.port = 6380;
        profile.user = "reader";
        profile.db = 3;
        profile.delimiter = '|';
        profile.readOnly = true;
        profile.speed = scan::ScanSpeed::Gentle;
        profile.connectTimeoutMs = 2500;
        profile.commandTimeoutMs = 90000;
        profile.colour = QColor(0x22, 0x88, 0xcc);
        profile.passwordMode = ConnectionProfile::PasswordMode::AskEveryTime;
        return profile;
    }

    // Saves the profile with settings that are closed at once: what is read next comes from the file.
    void saveAndClose(const ConnectionProfile& profile) const
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        models::SavedConnections saved(&settings);
        saved.save(profile);
    }

private Q_SLOTS:
    void everyFieldSurvivesARestart()
    {
        QString id;
        {
            QSettings settings(settingsPath(), QSettings::IniFormat);
            models::SavedConnections saved(&settings);
            QAbstractItemModelTester tester(&saved, QAbstractItemModelTester::FailureReportingMode::QtTest);
            id = saved.save(sample());
            QVERIFY(!id.isEmpty());
        }
        QSettings settings(settingsPath(), QSettings::IniFormat);
        models::SavedConnections saved(&settings);
        QAbstractItemModelTester tester(&saved, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(saved.rowCount(), 1);
        const ConnectionProfile* profile = saved.find(QStringLiteral("staging cache"));
        QVERIFY(profile);
        const ConnectionProfile expected = sample();
        QCOMPARE(profile->id, id);
        QCOMPARE(profile->host, expected.host);
        QCOMPARE(profile->port, expected.port);
        QCOMPARE(profile->user, expected.user);
        QCOMPARE(profile->db, expected.db);
        QCOMPARE(profile->delimiter, expected.delimiter);
        QCOMPARE(profile->readOnly, expected.readOnly);
        QCOMPARE(profile->speed, expected.speed);
        QCOMPARE(profile->connectTimeoutMs, expected.connectTimeoutMs);
        QCOMPARE(profile->commandTimeoutMs, expected.commandTimeoutMs);
        // They reach the connection too.
        const auto options = profile->connectionOptions({});
        QVERIFY(options && options->readOnly);
        QCOMPARE(options->connectTimeoutMs, 2500);
        QCOMPARE(options->commandTimeoutMs, 90000);
        QCOMPARE(profile->colour, expected.colour);
        QCOMPARE(profile->passwordMode, expected.passwordMode);
        saved.remove(id);
        QCOMPARE(saved.rowCount(), 0);
    }

    // The dialog offers the recent connections: choosing one fills the form with it (host, port, database,
    // read-only), as the welcome page would open it.
    void recentConnectionsFillTheForm()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        models::SavedConnections saved(&settings);
        ui::PasswordVault vault;
        ui::ConnectionDialog dialog(&saved, &vault);
        QVERIFY(!dialog.recentBox()->isEnabled()); // nothing recent yet
        ConnectionProfile recent;
        recent.name = QStringLiteral("10.1.2.3:6390 db 4");
        recent.host = QStringLiteral("10.1.2.3");
        recent.port = 6390;
        recent.db = 4;
        recent.readOnly = true;
        dialog.offerRecent({recent});
        QVERIFY(dialog.recentBox()->isEnabled());
        QCOMPARE(dialog.recentBox()->count(), 2);
        dialog.recentBox()->setCurrentIndex(1);
        Q_EMIT dialog.recentBox()->activated(1);
        const ConnectionProfile chosen = dialog.profile();
        QCOMPARE(chosen.host, QStringLiteral("10.1.2.3"));
        QCOMPARE(chosen.port, quint16(6390));
        QCOMPARE(chosen.db, 4);
        QVERIFY(chosen.readOnly);
        QCOMPARE(dialog.recentBox()->currentIndex(), 0); // ready to choose again
    }

    void passwordNeverReachesTheSettingsFile()
    {
        const QByteArray secret = "s3cret-Pa55word";
        QSettings settings(settingsPath(), QSettings::IniFormat);
        models::SavedConnections saved(&settings);
        ui::PasswordVault vault;
        ui::ConnectionDialog dialog(&saved, &vault);
        ConnectionProfile profile = sample();
        profile.name = QStringLiteral("with password");
        profile.passwordMode = ConnectionProfile::PasswordMode::Keychain;
        dialog.edit(profile, secret);
        QSignalSpy problem(&dialog, &ui::ConnectionDialog::keychainProblem);
        dialog.saveCurrent();
        // Either a keychain answers, or the dialog says none did; both within the D-Bus timeout.
        QTRY_VERIFY_WITH_TIMEOUT(problem.count() > 0 || saved.find(QStringLiteral("with password")), 30000);
        QTest::qWait(problem.count() > 0 ? 0 : 3000);
        const ConnectionProfile* stored = saved.find(QStringLiteral("with password"));
        QVERIFY(stored);
        qInfo("keychain: %s",
              problem.isEmpty() ? "a keychain service answered" : qPrintable(problem.first().first().toString()));
        if (!problem.isEmpty()) {
            QVERIFY(problem.first().first().toString().contains(QStringLiteral("ask for it every time")));
            QCOMPARE(stored->passwordMode, ConnectionProfile::PasswordMode::AskEveryTime);
        }
        settings.sync();
        QFile file(settingsPath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray contents = file.readAll();
        QVERIFY(contents.contains("with password"));
        QVERIFY(!contents.contains(secret));
        vault.remove(stored->id); // on a desktop with a keychain, leave nothing behind
        QTest::qWait(problem.isEmpty() ? 1000 : 0);
    }

    void uriPasswordMovesOutOfTheUri()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        models::SavedConnections saved(&settings);
        ui::PasswordVault vault;
        ui::ConnectionDialog dialog(&saved, &vault);
        ConnectionProfile profile;
        profile.kind = ConnectionProfile::Kind::Uri;
        profile.uri = QStringLiteral("redis://app:hunter2@10.0.0.5:6390/4");
        dialog.edit(profile);
        QCOMPARE(dialog.password(), QByteArray("hunter2"));
        QVERIFY(!dialog.profile().uri.contains(QStringLiteral("hunter2")));
        redis::Result<redis::ConnectionOptions> options = dialog.profile().connectionOptions(dialog.password());
        QVERIFY(options.ok());
        QCOMPARE(options->port, quint16(6390));
        QCOMPARE(options->db, 4);
        QCOMPARE(options->user, QByteArray("app"));
        QCOMPARE(options->password, QByteArray("hunter2"));
    }

    void unusableUriIsSavedWithoutItsPassword_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::newRow("rediss") << QStringLiteral("rediss://app:hunter2@10.0.0.5:6390/4");
        QTest::newRow("typo") << QStringLiteral("redis//app:hunter2@10.0.0.5:6390");
        QTest::newRow("no scheme") << QStringLiteral("app:hunter2@10.0.0.5");
    }

    void unusableUriIsSavedWithoutItsPassword()
    {
        QFETCH(QString, uri);
        QSettings settings(settingsPath(), QSettings::IniFormat);
        models::SavedConnections saved(&settings);
        ui::PasswordVault vault;
        ui::ConnectionDialog dialog(&saved, &vault);
        ConnectionProfile profile;
        profile.kind = ConnectionProfile::Kind::Uri;
        profile.uri = uri;
        dialog.edit(profile);
        saved.save(dialog.profile());
        settings.sync();
        QFile file(settingsPath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray contents = file.readAll();
        QVERIFY(contents.contains("10.0.0.5"));
        QVERIFY2(!contents.contains("hunter2"), contents.constData());
    }

    void profileConnectsWithItsPasswordOnly()
    {
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options serverOptions;
        serverOptions.extraArguments = {QStringLiteral("--requirepass"), QStringLiteral("letmein")};
        KEYLENS_START_SERVER(server, serverOptions);
        ConnectionProfile profile;
        profile.port = server.port();
        QVERIFY(redis::Connection::open(*profile.connectionOptions("letmein")).ok());
        const auto wrong = redis::Connection::open(*profile.connectionOptions("nope"));
        QVERIFY(!wrong.ok());
        QCOMPARE(wrong.error().kind, redis::ErrorKind::AuthFailed);
        const auto none = redis::Connection::open(*profile.connectionOptions({}));
        QVERIFY(!none.ok());
        QCOMPARE(none.error().kind, redis::ErrorKind::AuthRequired);
    }

    // Test in the dialog: each failure is said under the field it concerns, in the error colour, and goes once the
    // field is changed.
    void problemsShowNextToTheirField()
    {
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options serverOptions;
        serverOptions.extraArguments = {QStringLiteral("--requirepass"), QStringLiteral("letmein")};
        KEYLENS_START_SERVER(server, serverOptions);
        QSettings settings(settingsPath(), QSettings::IniFormat);
        models::SavedConnections saved(&settings);
        ui::PasswordVault vault;
        ui::ConnectionDialog dialog(&saved, &vault);
        dialog.show();
        const auto test = [&](const ConnectionProfile& profile, const QByteArray& password) {
            dialog.edit(profile, password);
            QSignalSpy tested(&dialog, &ui::ConnectionDialog::tested);
            dialog.testConnection();
            return tested.count() == 1 || tested.wait(15000);
        };
        ConnectionProfile profile;
        profile.port = server.port();
        QVERIFY(test(profile, "nope"));
        QVERIFY(dialog.credentialsProblem().contains(QStringLiteral("password"), Qt::CaseInsensitive));
        QVERIFY(dialog.addressProblem().isEmpty());
        const QList<QLabel*> label = dialog.findChildren<QLabel*>(QStringLiteral("fieldProblem"));
        const auto shown = std::find_if(label.begin(), label.end(), [](QLabel* l) { return l->isVisible(); });
        QVERIFY(shown != label.end());
        QCOMPARE((*shown)->palette().color(QPalette::WindowText), ui::overlay::errorText(dialog.palette()));
        // Read whole: once laid out, the label has the height its wrapped words need, inside the dialog.
        QTRY_VERIFY((*shown)->height() >= (*shown)->heightForWidth((*shown)->width()));
        QVERIFY((*shown)->mapTo(&dialog, QPoint(0, (*shown)->height())).y() <= dialog.height());

        profile.db = 40; // the server has 16
        QVERIFY(test(profile, "letmein"));
        QVERIFY2(dialog.databaseProblem().contains(QStringLiteral("40")), qPrintable(dialog.databaseProblem()));
        QVERIFY(dialog.credentialsProblem().isEmpty());

        profile.db = 0;
        profile.port = test::freeLoopbackPort();
        QVERIFY(test(profile, {}));
        QVERIFY(dialog.addressProblem().contains(QString::number(profile.port)));
        QVERIFY(dialog.databaseProblem().isEmpty());
        dialog.findChild<QSpinBox*>(QStringLiteral("port"))->setValue(server.port()); // the port: its problem goes
        QVERIFY(dialog.addressProblem().isEmpty());
    }

    // TLS in a saved connection: every field survives a restart, and the dialog's Test goes through it (a CA that
    // is not trusted is said under the TLS fields; the right one connects).
    void tlsProfile()
    {
        test::TestPki pki;
        if (!pki.make())
            QSKIP(qPrintable(QStringLiteral("no certificates for a TLS test: %1").arg(pki.why())));
        const quint16 tlsPort = test::freeLoopbackPort();
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options serverOptions;
        serverOptions.extraArguments = {QStringLiteral("--tls-port"),         QString::number(tlsPort),
                                        QStringLiteral("--tls-cert-file"),    pki.path(QStringLiteral("server.pem")),
                                        QStringLiteral("--tls-key-file"),     pki.path(QStringLiteral("server.key")),
                                        QStringLiteral("--tls-ca-cert-file"), pki.path(QStringLiteral("ca.pem")),
                                        QStringLiteral("--tls-auth-clients"), QStringLiteral("no")};
        KEYLENS_START_SERVER(server, serverOptions);

        ConnectionProfile profile;
        profile.name = QStringLiteral("tls cache");
        profile.port = tlsPort;
        profile.tls.enabled = true;
        profile.tls.caCertFile = pki.path(QStringLiteral("other-ca.pem"));
        profile.tls.caCertDir.clear(); // the PKI's directory would hold the right CA too
        profile.tls.certFile = pki.path(QStringLiteral("client.pem"));
        profile.tls.keyFile = pki.path(QStringLiteral("client.key"));
        profile.tls.serverName = QStringLiteral("localhost");
        profile.speed = scan::ScanSpeed::Full;
        profile.commandTimeoutMs = 45500;
        saveAndClose(profile);
        QSettings settings(settingsPath(), QSettings::IniFormat);
        models::SavedConnections saved(&settings);
        const ConnectionProfile* read = saved.find(QStringLiteral("tls cache"));
        QVERIFY(read);
        QVERIFY(read->tls == profile.tls);

        ui::PasswordVault vault;
        ui::ConnectionDialog dialog(&saved, &vault);
        dialog.show();
        dialog.selectProfile(read->id);
        QVERIFY(dialog.profile().tls == profile.tls);
        QCOMPARE(dialog.profile().speed, profile.speed); // the dialog's fields hold what was saved
        QCOMPARE(dialog.profile().commandTimeoutMs, 45500);
        QCOMPARE(dialog.profile().connectTimeoutMs, 5000);
        QSignalSpy tested(&dialog, &ui::ConnectionDialog::tested);
        dialog.testConnection();
        QVERIFY(tested.count() == 1 || tested.wait(15000));
        QVERIFY2(dialog.tlsProblem().contains(QStringLiteral("not trusted")), qPrintable(dialog.tlsProblem()));
        QVERIFY(dialog.addressProblem().isEmpty());
        ConnectionProfile trusted = dialog.profile();
        trusted.tls.caCertFile = pki.path(QStringLiteral("ca.pem"));
        dialog.edit(trusted);
        tested.clear();
        dialog.testConnection();
        QVERIFY(tested.count() == 1 || tested.wait(15000));
        QVERIFY2(dialog.tlsProblem().isEmpty(), qPrintable(dialog.tlsProblem()));
        const QList<QLabel*> labels = dialog.findChildren<QLabel*>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [](QLabel* label) {
            return label->text().startsWith(QStringLiteral("Connected to 127.0.0.1"));
        }));
        saved.remove(read->id);
    }

    // An SSH tunnel in a saved connection: its fields survive a restart and come back into the dialog's SSH group,
    // and the dialog's Test goes through a real sshd (an unknown host key is said under the SSH fields).
    void sshProfile()
    {
        test::TestSshServer sshd;
        if (!sshd.start())
            QSKIP(qPrintable(QStringLiteral("no sshd to test SSH tunnels against: ") + sshd.why()));
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);

        ConnectionProfile profile;
        profile.name = QStringLiteral("behind the bastion");
        profile.port = server.port();
        profile.ssh = sshd.options();
        profile.ssh.knownHostsFile = sshd.path(QStringLiteral("empty_known_hosts"));
        saveAndClose(profile);
        QSettings settings(settingsPath(), QSettings::IniFormat);
        models::SavedConnections saved(&settings);
        const ConnectionProfile* read = saved.find(profile.name);
        QVERIFY(read);
        QVERIFY(read->ssh == profile.ssh);
        QVERIFY(read->connectionOptions({})->ssh == profile.ssh);
        QVERIFY2(read->address().endsWith(QStringLiteral(" via SSH ") + profile.ssh.destination()),
                 qPrintable(read->address()));

        ui::PasswordVault vault;
        ui::ConnectionDialog dialog(&saved, &vault);
        dialog.show();
        dialog.selectProfile(read->id);
        QVERIFY(dialog.findChild<QGroupBox*>(QStringLiteral("ssh"))->isChecked());
        QCOMPARE(dialog.findChild<QLineEdit*>(QStringLiteral("sshHost"))->text(), profile.ssh.host);
        QVERIFY(dialog.profile().ssh == profile.ssh);
        QSignalSpy tested(&dialog, &ui::ConnectionDialog::tested);
        dialog.testConnection();
        QVERIFY(tested.count() == 1 || tested.wait(15000));
        QVERIFY2(dialog.sshProblem().contains(QStringLiteral("known_hosts")), qPrintable(dialog.sshProblem()));
        QVERIFY(dialog.addressProblem().isEmpty());

        dialog.findChild<QLineEdit*>(QStringLiteral("sshKnownHosts"))
            ->setText(sshd.path(QStringLiteral("known_hosts")));
        tested.clear();
        dialog.testConnection();
        QVERIFY(tested.count() == 1 || tested.wait(15000));
        QVERIFY2(dialog.sshProblem().isEmpty(), qPrintable(dialog.sshProblem()));
        const QList<QLabel*> labels = dialog.findChildren<QLabel*>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [](QLabel* label) {
            return label->text().startsWith(QStringLiteral("Connected to 127.0.0.1"));
        }));

        // Ticked without an SSH server: said, nothing started.
        dialog.findChild<QLineEdit*>(QStringLiteral("sshHost"))->clear();
        tested.clear();
        dialog.testConnection();
        QVERIFY(tested.count() == 1 || tested.wait(15000));
        QVERIFY(dialog.sshProblem().contains(QStringLiteral("SSH server")));
        saved.remove(read->id);
    }

    // Sentinel from the dialog's own fields: the sentinels and master name survive a restart, come back into the
    // fields, and become a sentinel connection (user, password and database included).
    void sentinelProfile()
    {
        ConnectionProfile profile;
        profile.name = QStringLiteral("sentinel cache");
        profile.kind = ConnectionProfile::Kind::Sentinel;
        profile.sentinels = QStringLiteral("s1.internal, s2.internal:26380");
        profile.masterName = "cache master";
        profile.user = "reader";
        profile.db = 2;
        saveAndClose(profile);
        QSettings settings(settingsPath(), QSettings::IniFormat);
        models::SavedConnections saved(&settings);
        const ConnectionProfile* read = saved.find(profile.name);
        QVERIFY(read);
        QCOMPARE(read->kind, ConnectionProfile::Kind::Sentinel);
        QCOMPARE(read->sentinels, profile.sentinels);
        QCOMPARE(read->masterName, profile.masterName);

        ui::PasswordVault vault;
        ui::ConnectionDialog dialog(&saved, &vault);
        dialog.show();
        dialog.selectProfile(read->id);
        QCOMPARE(dialog.findChild<QLineEdit*>(QStringLiteral("sentinels"))->text(), profile.sentinels);
        QCOMPARE(dialog.findChild<QLineEdit*>(QStringLiteral("masterName"))->text(), QStringLiteral("cache master"));
        const auto options = dialog.profile().connectionOptions("secret");
        QVERIFY2(options, options ? "" : qPrintable(options.error().message));
        QCOMPARE(options->sentinel.masterName, QByteArray("cache master"));
        QCOMPARE(options->sentinel.sentinels.size(), std::size_t(2));
        QCOMPARE(options->sentinel.sentinels[0], std::pair(QStringLiteral("s1.internal"), quint16(26379)));
        QCOMPARE(options->sentinel.sentinels[1], std::pair(QStringLiteral("s2.internal"), quint16(26380)));
        QCOMPARE(options->db, 2);
        QCOMPARE(options->user, QByteArray("reader"));
        QCOMPARE(options->password, QByteArray("secret"));

        // No master name: the problem is said, not a connection to nowhere.
        dialog.findChild<QLineEdit*>(QStringLiteral("masterName"))->clear();
        QVERIFY(!dialog.profile().connectionOptions({}));
        saved.remove(read->id);
    }
};

QTEST_MAIN(TestConnections)
#include "tst_connections.moc"
