// A node's table exported (models/TableExport.h): JSON names keep their bytes as every JSON of ours does, the text
// escaped and the exact bytes in `<field>_base64`; CSV names as the tree shows them.
#include "TestKeys.h"
#include "keyspace/Keyspace.h"
#include "models/TableExport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace keylens;

namespace {

// A name's bytes as the JSON says them: `<field>_base64` when there, else the text.
QByteArray bytesOf(const QJsonObject& object, const QString& field)
{
    const QJsonValue exact = object.value(field + QStringLiteral("_base64"));
    return exact.isString() ? QByteArray::fromBase64(exact.toString().toLatin1())
                            : object.value(field).toString().toUtf8();
}

} // namespace

class TestTableExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // A key with invalid UTF-8 and a NUL in its name comes back byte for byte (fromUtf8 made both U+FFFD and lost
    // them); a printable one has no `_base64`.
    void jsonKeepsTheBytesOfANonTextKey()
    {
        const QByteArray binary("bin:\xff\xfe\x00x\xc3", 10);
        QCOMPARE(binary.size(), 10);
        keyspace::Keyspace store;
        store.insert(binary, test::measuredKey(keyspace::KeyType::String, 100));
        store.insert("bin:plain", test::measuredKey(keyspace::KeyType::String, 50));
        store.insert(QByteArray("\xff:y", 3), test::measuredKey(keyspace::KeyType::String, 10));

        const QJsonObject table = QJsonDocument::fromJson(models::childrenJson(store, store.find("bin"))).object();
        QCOMPARE(bytesOf(table, QStringLiteral("node")), QByteArray("bin"));
        const QJsonArray rows = table.value(QStringLiteral("children")).toArray();
        QCOMPARE(rows.size(), 2);
        const QJsonObject first = rows[0].toObject(); // the biggest first
        QCOMPARE(bytesOf(first, QStringLiteral("path")), binary);
        QCOMPARE(bytesOf(first, QStringLiteral("name")), binary.sliced(4));
        QVERIFY(!first.value(QStringLiteral("path")).toString().contains(QChar::ReplacementCharacter));
        QCOMPARE(first.value(QStringLiteral("memory_bytes")).toInteger(), 100);
        const QJsonObject second = rows[1].toObject();
        QCOMPARE(second.value(QStringLiteral("path")).toString(), QStringLiteral("bin:plain"));
        QVERIFY(!second.contains(QStringLiteral("path_base64")));

        // The node's own path too.
        const QJsonObject under =
            QJsonDocument::fromJson(models::childrenJson(store, store.find(QByteArray("\xff", 1)))).object();
        QCOMPARE(bytesOf(under, QStringLiteral("node")), QByteArray("\xff", 1));
    }
};

QTEST_MAIN(TestTableExport)
#include "tst_tableexport.moc"
