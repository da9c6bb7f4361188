// Build tool, not installed: renders what the package ships beside the binaries from the binaries' own
// definitions — the manual pages and shell completions from the command-line interfaces (so they cannot
// drift from --help), and the PNG icon sizes from the one SVG.
#include "cli/Cli.h"
#include "ui/GuiCommandLine.h"
#include "usage/Completions.h"
#include "usage/ManPage.h"

#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

namespace {

bool write(const QString& path, const QByteArray& content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size()) {
        std::fprintf(stderr, "keylens-docgen: cannot write %s\n", qPrintable(path));
        return false;
    }
    return true;
}

bool renderIcon(const QString& svgPath, int size, const QString& pngPath)
{
    QSvgRenderer renderer(svgPath);
    if (!renderer.isValid()) {
        std::fprintf(stderr, "keylens-docgen: cannot read %s\n", qPrintable(svgPath));
        return false;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    renderer.render(&painter);
    painter.end();
    QDir().mkpath(QFileInfo(pngPath).path());
    if (!image.save(pngPath, "PNG")) {
        std::fprintf(stderr, "keylens-docgen: cannot write %s\n", qPrintable(pngPath));
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen"); // a build machine has no display
    QGuiApplication app(argc, argv);
    const QStringList arguments = QCoreApplication::arguments();
    if (arguments.size() != 5) {
        std::fprintf(stderr, "usage: keylens-docgen OUTPUT_DIR VERSION DATE ICON.svg\n");
        return 2;
    }
    const QString out = arguments[1];
    const QString version = arguments[2];
    const QString date = arguments[3];
    const QString icon = arguments[4];

    const keylens::usage::Program cli = keylens::cli::program();
    bool ok = write(out + QStringLiteral("/man/keylens.1"),
                    keylens::usage::manPage(keylens::ui::guiProgram(), version, date)) &&
              write(out + QStringLiteral("/man/keylens-cli.1"), keylens::usage::manPage(cli, version, date)) &&
              write(out + QStringLiteral("/completions/keylens-cli.bash"), keylens::usage::bashCompletion(cli)) &&
              write(out + QStringLiteral("/completions/_keylens-cli"), keylens::usage::zshCompletion(cli)) &&
              write(out + QStringLiteral("/completions/keylens-cli.fish"), keylens::usage::fishCompletion(cli));
    for (const int size : {16, 24, 32, 48, 64, 128, 256, 512})
        ok = ok && renderIcon(icon, size, QStringLiteral("%1/icons/%2x%2/keylens.png").arg(out).arg(size));
    return ok ? 0 : 1;
}
