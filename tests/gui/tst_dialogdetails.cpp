// The dialogs say all they mean and stay put: the Connect dialog's fields do not move when a problem is shown (the
// pointer on its way to Password landed in ACL user), its Recent list tells two users of one server apart, the
// Legend has the Cold column's colour, and the Compare dialog tells apart two scans of one minute.
#include "TestServer.h"
#include "history/SnapshotStore.h"
#include "models/RecentConnections.h"
#include "models/SavedConnections.h"
#include "ui/CompareDialog.h"
#include "ui/ConnectionDialog.h"
#include "ui/LegendDialog.h"
#include "ui/OverlayColours.h"
#include "ui/PasswordVault.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace keylens;

class TestDialogDetails : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // Where each input of the dialog is, in the dialog.
    static std::map<QWidget*, QPoint> fieldPlaces(QDialog& dialog)
    {
        std::map<QWidget*, QPoint> places;
        for (QWidget* field : dialog.findChildren<QWidget*>()) {
            if (field->isVisible() && (qobject_cast<QLineEdit*>(field) || qobject_cast<QAbstractSpinBox*>(field) ||
                                       qobject_cast<QComboBox*>(field)))
                places[field] = field->mapTo(&dialog, QPoint(0, 0));
        }
        return places;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void connectFieldsStayWhereTheyAre()
    {
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options serverOptions;
        serverOptions.extraArguments = {QStringLiteral("--requirepass"), QStringLiteral("letmein")};
        KEYLENS_START_SERVER(server, serverOptions);
        QSettings settings(m_dir.filePath(QStringLiteral("connect.ini")), QSettings::IniFormat);
        models::SavedConnections saved(&settings);
        ui::PasswordVault vault;
        ui::ConnectionDialog dialog(&saved, &vault);
        dialog.resize(900, 560);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        models::ConnectionProfile profile;
        profile.port = server.port();
        const auto test = [&](const models::ConnectionProfile& tried, const QByteArray& password) {
            dialog.edit(tried, password);
            QSignalSpy tested(&dialog, &ui::ConnectionDialog::tested);
            dialog.testConnection();
            return tested.count() == 1 || tested.wait(15000);
        };
        dialog.edit(profile, {});
        QCoreApplication::processEvents();
        const std::map<QWidget*, QPoint> before = fieldPlaces(dialog);
        QVERIFY(before.size() >= 4);

        QVERIFY(test(profile, "nope")); // the server's WRONGPASS
        QTRY_VERIFY(!dialog.credentialsProblem().isEmpty());
        QTRY_COMPARE(fieldPlaces(dialog), before);
        QVERIFY2(dialog.credentialsProblem().contains(QStringLiteral("ACL user and password")),
                 qPrintable(dialog.credentialsProblem()));
        profile.port = test::freeLoopbackPort(); // nothing listens there
        QVERIFY(test(profile, {}));
        QTRY_VERIFY(dialog.addressProblem().contains(QString::number(profile.port)));
        QTRY_COMPARE(fieldPlaces(dialog), before);
        if (const QString dir = qEnvironmentVariable("KEYLENS_GRAB_DIR"); !dir.isEmpty())
            dialog.grab().save(dir + QStringLiteral("/connect-problem.png"));
    }

    void recentListTellsUsersApart()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("recent.ini")), QSettings::IniFormat);
        models::RecentConnections recent(&settings);
        for (const QString& user : {QStringLiteral("alice"), QStringLiteral("bob")})
            recent.remember({QStringLiteral("127.0.0.1:7602"),
                             QStringLiteral("redis://%1@127.0.0.1:7602/0").arg(user),
                             {},
                             {},
                             {},
                             false});
        const std::vector<models::ConnectionProfile> profiles = recent.unsavedProfiles();
        QCOMPARE(profiles.size(), std::size_t(2));
        // Reopened as the user it was, with no password: the URI's user-info is the user (newest first).
        QCOMPARE(profiles[0].user, QByteArray("bob"));
        QCOMPARE(profiles[1].user, QByteArray("alice"));
        models::SavedConnections saved(&settings);
        ui::PasswordVault vault;
        ui::ConnectionDialog dialog(&saved, &vault);
        dialog.offerRecent(profiles);
        auto* list = dialog.findChild<QComboBox*>(QStringLiteral("recent"));
        QVERIFY(list);
        QCOMPARE(list->count(), 3); // the prompt, then the two
        QVERIFY2(list->itemText(1) != list->itemText(2), qPrintable(list->itemText(1)));
        for (int i = 1; i <= 2; ++i)
            QVERIFY2(list->itemText(i).contains(QString::fromUtf8(profiles[std::size_t(i - 1)].user)),
                     qPrintable(list->itemText(i)));
    }

    // Every colour the tree paints has a line in the Legend: the Cold column's tint too.
    void legendHasTheColdColour()
    {
        ui::LegendDialog legend;
        const QList<QLabel*> labels = legend.findChildren<QLabel*>();
        const auto cold = std::find_if(labels.begin(), labels.end(), [](QLabel* label) {
            return label->text().contains(QStringLiteral("Cold column"));
        });
        QVERIFY(cold != labels.end());
        // Its swatch, on the same row once laid out: the cold colour's hue.
        const QLabel* swatch = nullptr;
        legend.show();
        QVERIFY(QTest::qWaitForWindowExposed(&legend));
        for (QLabel* label : labels) {
            if (!label->pixmap().isNull() && std::abs(label->y() - (*cold)->y()) < 4 && label->x() < (*cold)->x())
                swatch = label;
        }
        QVERIFY(swatch);
        const QImage image = swatch->pixmap().toImage();
        const QColor middle = image.pixelColor(image.width() / 2, image.height() / 2);
        QVERIFY2(std::abs(middle.hue() - ui::overlay::cold().hue()) <= 2,
                 qPrintable(QStringLiteral("%1 vs %2").arg(middle.hue()).arg(ui::overlay::cold().hue())));
    }

    // Two scans thirty seconds apart, in one minute: two rows that say different times, each its own to the second.
    void compareListsScansToTheSecond()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        for (const char* name : {"20261207-101500000.kls", "20261207-101530000.kls"}) {
            QFile file(folder.filePath(QString::fromLatin1(name)));
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        const std::vector<history::SnapshotStore::Entry> entries = history::SnapshotStore::entriesIn(folder.path());
        QCOMPARE(entries.size(), std::size_t(2));
        ui::CompareDialog dialog(folder.path(), 0);
        auto* list = dialog.findChild<QTreeWidget*>();
        QVERIFY(list);
        QCOMPARE(list->topLevelItemCount(), 2);
        QVERIFY2(list->topLevelItem(0)->text(0) != list->topLevelItem(1)->text(0),
                 qPrintable(list->topLevelItem(0)->text(0)));
        for (int row = 0; row < 2; ++row) { // newest first
            const QDateTime when = QDateTime::fromMSecsSinceEpoch(entries[std::size_t(1 - row)].takenAtMs);
            QVERIFY2(list->topLevelItem(row)->text(0).contains(when.toString(QStringLiteral("HH:mm:ss"))),
                     qPrintable(list->topLevelItem(row)->text(0)));
        }
    }
};

QTEST_MAIN(TestDialogDetails)
#include "tst_dialogdetails.moc"
