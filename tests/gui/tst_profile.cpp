// Scan > Profile for N seconds: the dialog's counts per pattern equal what a plain client sent; a production-tagged
// connection asks again, and No starts nothing.
#include "DialogAnswers.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "ui/ProfileDialog.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QTreeWidget>

using namespace keylens;

class TestProfile : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;

    static QTreeWidgetItem* rowOf(QTreeWidget* tree, const QString& pattern)
    {
        for (int i = 0; i < tree->topLevelItemCount(); ++i) {
            if (tree->topLevelItem(i)->text(0) == pattern)
                return tree->topLevelItem(i);
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase() { KEYLENS_START_SERVER(m_server); }

    void countsWhatAClientSent()
    {
        test::PlainClient client(m_server.port());
        ui::ProfileDialog dialog(m_server.connectionOptions(), keyspace::Delimiters(':'), false);
        dialog.show();
        dialog.secondsBox()->setValue(2);
        QSignalSpy sampled(&dialog, &ui::ProfileDialog::sampled);
        dialog.startButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(client.command({"CLIENT", "LIST"}).contains("cmd=monitor"), 5000);
        for (int i = 0; i < 30; ++i)
            client.command({"HGETALL", "user:" + QByteArray::number(i) + ":profile"});
        for (int i = 0; i < 12; ++i)
            client.command({"INCR", "counter:" + QByteArray::number(i)});
        QVERIFY(sampled.wait(10000));
        const QTreeWidgetItem* users = rowOf(dialog.results(), QStringLiteral("user:<int>:profile"));
        QVERIFY(users);
        QCOMPARE(users->text(2), QStringLiteral("30")); // reads
        QCOMPARE(users->text(3), QStringLiteral("0"));  // writes
        QVERIFY(users->text(4).startsWith(QLatin1String("hgetall 30")));
        const QTreeWidgetItem* counters = rowOf(dialog.results(), QStringLiteral("counter:<int>"));
        QVERIFY(counters);
        QCOMPARE(counters->text(3), QStringLiteral("12"));
        QVERIFY(dialog.summary()->text().contains(QLatin1String("before")));
        QVERIFY(dialog.startButton()->isEnabled());
    }

    void productionAsksAgain()
    {
        test::PlainClient client(m_server.port());
        const long long monitorsBefore = client.commandCalls("monitor");
        ui::ProfileDialog dialog(m_server.connectionOptions(), keyspace::Delimiters(':'), true);
        dialog.show();
        auto said = std::make_shared<QString>();
        const std::shared_ptr<bool> answered = test::answerNextMessageBox(QStringLiteral("No"), said);
        dialog.startButton()->click();
        QVERIFY(*answered);
        QVERIFY(said->contains(QLatin1String("production")));
        QVERIFY(dialog.startButton()->isEnabled());
        QTest::qWait(300);
        QCOMPARE(client.commandCalls("monitor"), monitorsBefore);
    }
};

QTEST_MAIN(TestProfile)
#include "tst_profile.moc"
