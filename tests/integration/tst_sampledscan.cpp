// Sampled mode (--sample N): memory measured on a uniform random sample, estimated per namespace with a bound. On
// seeded servers the true figure, summed key by key with MEMORY USAGE by a plain client, falls inside the bound.
#include "CliRunner.h"
#include "PlainClient.h"
#include "TestServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <map>

using namespace keylens;

class TestSampledScan : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    std::map<QString, long long> m_truth; // top-level namespace → bytes
    long long m_total = 0;
    long long m_keys = 0;

    // Three populations that differ in size and spread: small strings, log-uniform blobs, hashes of 1-60 fields.
    void load(quint32 seed)
    {
        test::PlainClient client(m_server.port());
        client.command({"FLUSHALL"});
        QRandomGenerator random(seed);
        std::vector<std::vector<QByteArray>> commands;
        std::vector<QByteArray> keys;
        for (int i = 0; i < 20000; ++i) {
            keys.push_back("small:" + QByteArray::number(i));
            commands.push_back({"SET", keys.back(), QByteArray(int(random.bounded(10, 100)), 's')});
        }
        for (int i = 0; i < 5000; ++i) {
            keys.push_back("blob:" + QByteArray::number(i));
            const int size =
                int(std::exp(std::log(100.0) + random.generateDouble() * (std::log(20000.0) - std::log(100.0))));
            commands.push_back({"SET", keys.back(), QByteArray(size, 'b')});
        }
        for (int i = 0; i < 5000; ++i) {
            keys.push_back("hash:" + QByteArray::number(i));
            std::vector<QByteArray> hset = {"HSET", keys.back()};
            for (int f = int(random.bounded(1, 60)); f > 0; --f) {
                hset.push_back("field" + QByteArray::number(f));
                hset.push_back(QByteArray(int(random.bounded(1, 40)), 'v'));
            }
            commands.push_back(hset);
        }
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        std::vector<std::vector<QByteArray>> questions;
        for (const QByteArray& key : keys)
            questions.push_back({"MEMORY", "USAGE", key});
        const std::vector<long long> sizes = client.pipelineIntegers(questions);
        m_truth.clear();
        m_total = 0;
        for (std::size_t i = 0; i < keys.size(); ++i) {
            m_truth[QString::fromUtf8(keys[i].left(keys[i].indexOf(':')))] += sizes[i];
            m_total += sizes[i];
        }
        m_keys = qint64(keys.size());
    }

    static QJsonObject scanJson(const QStringList& arguments)
    {
        const test::CliRun run = test::runCli(arguments);
        if (run.exitCode != 0)
            qWarning() << run.err;
        return QJsonDocument::fromJson(run.out).object();
    }

    // |estimate - truth| <= bound, with the figures in the message when not.
    static bool within(const QJsonObject& estimate, long long truth, QByteArray* why)
    {
        const double bytes = estimate.value(QStringLiteral("bytes")).toDouble();
        const double bound = estimate.value(QStringLiteral("bound_bytes")).toDouble(-1);
        *why = "estimate " + QByteArray::number(bytes, 'f', 0) + " ± " + QByteArray::number(bound, 'f', 0) +
               ", truth " + QByteArray::number(truth);
        return bound >= 0 && std::abs(bytes - double(truth)) <= bound;
    }

private Q_SLOTS:
    void initTestCase() { KEYLENS_START_SERVER(m_server); }
    void cleanupTestCase() { m_server.stop(); }

    void theTruthFallsInsideTheBound_data()
    {
        QTest::addColumn<quint32>("seed");
        QTest::addColumn<int>("sample");
        QTest::newRow("seed 1, 3,000 keys") << 1u << 3000;
        QTest::newRow("seed 2, 1,000 keys") << 2u << 1000;
        QTest::newRow("seed 3, 6,000 keys") << 3u << 6000;
    }
    void theTruthFallsInsideTheBound()
    {
        QFETCH(quint32, seed);
        QFETCH(int, sample);
        load(seed);
        test::PlainClient client(m_server.port());
        client.command({"CONFIG", "RESETSTAT"});
        const QJsonObject report = scanJson({QStringLiteral("scan"), m_server.uri(), QStringLiteral("--sample"),
                                             QString::number(sample), QStringLiteral("--format"),
                                             QStringLiteral("json"), QStringLiteral("--depth"), QStringLiteral("1")});
        const QJsonObject scan = report.value(QStringLiteral("scan")).toObject();
        QVERIFY(std::abs(scan.value(QStringLiteral("sample_probability")).toDouble() -
                         double(sample) / double(m_keys)) < 1e-5);
        // Names and types for every key; memory asked for about `sample` of them (binomial: within 5 sigma).
        const QJsonObject totals = report.value(QStringLiteral("totals")).toObject();
        QCOMPARE(totals.value(QStringLiteral("keys")).toInteger(), m_keys);
        // Less the probe, and the keys asked again whether their figure was sampled (MemorySampling.h).
        const long long checked = scan.value(QStringLiteral("keys_memory_checked")).toInteger(-1);
        QVERIFY(checked >= 0 && checked <= 5000); // the hashes, at most
        const long long asked = client.commandCalls("memory|usage") - 1 - checked;
        const double sigma = std::sqrt(double(sample) * (1.0 - double(sample) / double(m_keys)));
        QVERIFY2(std::abs(double(asked) - sample) <= 5 * sigma, QByteArray::number(asked).constData());
        QCOMPARE(totals.value(QStringLiteral("memory_estimate"))
                     .toObject()
                     .value(QStringLiteral("sampled_keys"))
                     .toInteger(),
                 asked);

        QByteArray why;
        QVERIFY2(within(totals.value(QStringLiteral("memory_estimate")).toObject(), m_total, &why), why.constData());
        const QJsonArray namespaces = report.value(QStringLiteral("namespaces")).toArray();
        QCOMPARE(namespaces.size(), 3);
        for (const QJsonValue& value : namespaces) {
            const QJsonObject entry = value.toObject();
            const QString name = entry.value(QStringLiteral("name")).toString();
            QVERIFY2(within(entry.value(QStringLiteral("memory_estimate")).toObject(), m_truth.at(name), &why),
                     QByteArray(name.toUtf8() + ": " + why).constData());
            // A bound that says something: tighter than the figure itself.
            QVERIFY(entry.value(QStringLiteral("memory_estimate"))
                        .toObject()
                        .value(QStringLiteral("bound_bytes"))
                        .toDouble() < double(m_truth.at(name)));
        }
    }

    void withoutSampleEveryKeyIsMeasured()
    {
        load(4);
        const QJsonObject report =
            scanJson({QStringLiteral("scan"), m_server.uri(), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY(report.value(QStringLiteral("scan")).toObject().value(QStringLiteral("sample_probability")).isNull());
        const QJsonObject totals = report.value(QStringLiteral("totals")).toObject();
        QVERIFY(!totals.contains(QStringLiteral("memory_estimate")));
        QCOMPARE(totals.value(QStringLiteral("memory_bytes")).toInteger(), m_total);
    }

    void aSampleAsBigAsTheKeyspaceIsExact()
    {
        load(5);
        const QJsonObject report =
            scanJson({QStringLiteral("scan"), m_server.uri(), QStringLiteral("--sample"), QString::number(m_keys * 2),
                      QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY(report.value(QStringLiteral("scan")).toObject().value(QStringLiteral("sample_probability")).isNull());
        QCOMPARE(report.value(QStringLiteral("totals")).toObject().value(QStringLiteral("memory_bytes")).toInteger(),
                 m_total);
    }

    // The text report shows what the JSON has: each namespace's estimate and bound, ranked by the estimate, the whole
    // keyspace's the header's. It showed the sums of the sampled keys as lower bounds ("(all keys) ≥ 19.3 KiB
    // ≥ 100.0%") beneath a header that estimated 3.40 MiB ± 409 KiB.
    void theTextReportShowsTheEstimates()
    {
        load(6);
        const test::CliRun run =
            test::runCli({QStringLiteral("scan"), m_server.uri(), QStringLiteral("--sample"), QStringLiteral("1000")});
        QCOMPARE(run.exitCode, 0);
        const QString text = QString::fromUtf8(run.out);
        const QRegularExpressionMatch header =
            QRegularExpression(QStringLiteral("about (\\S+ \\S+) \u00b1 ([^ ;]+ [^ ;]+)")).match(text);
        QVERIFY2(header.hasMatch(), run.out.constData());
        const QString table = text.mid(text.indexOf(QStringLiteral("NAMESPACE")));
        const QString allKeys =
            QStringLiteral("\\(all keys\\) +30,000 +\u2248 %1 \u00b1 %2 +\u2248 100.0%")
                .arg(QRegularExpression::escape(header.captured(1)), QRegularExpression::escape(header.captured(2)));
        QVERIFY2(QRegularExpression(allKeys).match(table).hasMatch(), run.out.constData());
        QVERIFY2(!table.contains(QStringLiteral("\u2265")), run.out.constData());
        // Biggest first, by their estimates (each within its bound of the truth, as the JSON's are).
        const qsizetype blob = table.indexOf(QStringLiteral("\nblob:")),
                        hash = table.indexOf(QStringLiteral("\nhash:")),
                        small = table.indexOf(QStringLiteral("\nsmall:"));
        QVERIFY2(blob > 0 && blob < hash && hash < small, run.out.constData());
        QVERIFY2(QRegularExpression(QStringLiteral("\nblob: +5,000 +\u2248 \\S+ \\S+ \u00b1 \\S+ \\S+ +\u2248 "))
                     .match(table)
                     .hasMatch(),
                 run.out.constData());
    }

    void aBadSampleIsAUsageError()
    {
        const test::CliRun run =
            test::runCli({QStringLiteral("scan"), m_server.uri(), QStringLiteral("--sample"), QStringLiteral("0")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("--sample"));
    }
};

QTEST_GUILESS_MAIN(TestSampledScan)
#include "tst_sampledscan.moc"
