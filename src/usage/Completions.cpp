#include "usage/Completions.h"

namespace keylens::usage {

namespace {

enum class ValueKind { None, File, Directory, Choice, Free };

ValueKind valueKind(const Command& command, const QCommandLineOption& option)
{
    const QString value = option.valueName();
    if (value.isEmpty())
        return ValueKind::None;
    if (command.choices.contains(longestName(option)))
        return ValueKind::Choice;
    if (value == QLatin1String("dir"))
        return ValueKind::Directory;
    if (value.contains(QLatin1String("file")) || value == QLatin1String("socket") || value == QLatin1String("path"))
        return ValueKind::File;
    return ValueKind::Free;
}

// A positional argument that is a file (restore FILE) gets file names; a URI gets nothing to guess from.
bool takesFileArgument(const Command& command)
{
    for (const Argument& argument : command.arguments) {
        if (argument.name == QLatin1String("file"))
            return true;
    }
    return false;
}

QString firstSentence(const QString& text)
{
    const qsizetype end = text.indexOf(QLatin1String(". "));
    QString sentence = end < 0 ? text : text.left(end + 1);
    if (sentence.endsWith(u'.'))
        sentence.chop(1);
    return sentence;
}

QString singleQuotedForPosix(QString text)
{
    return u'\'' + text.replace(u'\'', QLatin1String("'\\''")) + u'\'';
}

QString singleQuotedForFish(QString text)
{
    text.replace(u'\\', QLatin1String("\\\\")).replace(u'\'', QLatin1String("\\'"));
    return u'\'' + text + u'\'';
}

QString functionName(const Program& program)
{
    return u'_' + QString(program.name).replace(u'-', u'_');
}

QString commandWords(const Program& program)
{
    QStringList words;
    for (const Command& command : program.commands)
        words += command.name;
    return words.join(u' ');
}

} // namespace

QByteArray bashCompletion(const Program& program)
{
    QString out =
        QStringLiteral("# bash completion for %1; generated from its command-line definitions.\n\n").arg(program.name);
    out += functionName(program) + QStringLiteral("()\n{\n");
    out += QStringLiteral("    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} options=\n");
    out += QStringLiteral("    if [[ $COMP_CWORD -eq 1 ]]; then\n");
    out += QStringLiteral("        COMPREPLY=($(compgen -W '%1 --help --version' -- \"$cur\"))\n")
               .arg(commandWords(program));
    out += QStringLiteral("        return\n    fi\n");
    out += QStringLiteral("    case ${COMP_WORDS[1]} in\n");
    for (const Command& command : program.commands) {
        QStringList names{QStringLiteral("--help")};
        QStringList files, directories, free;
        QString choices;
        for (const QCommandLineOption& option : command.allOptions()) {
            QStringList spelled;
            for (const QString& name : option.names())
                spelled += dashedName(name);
            names += spelled;
            switch (valueKind(command, option)) {
            case ValueKind::File:
                files += spelled;
                break;
            case ValueKind::Directory:
                directories += spelled;
                break;
            case ValueKind::Free:
                free += spelled;
                break;
            case ValueKind::Choice:
                choices += QStringLiteral("        %1) COMPREPLY=($(compgen -W '%2' -- \"$cur\")); return ;;\n")
                               .arg(spelled.join(u'|'), command.choices.value(longestName(option)).join(u' '));
                break;
            case ValueKind::None:
                break;
            }
        }
        out += QStringLiteral("    %1)\n        options='%2'\n        case $prev in\n")
                   .arg(command.name, names.join(u' '));
        out += choices;
        if (!files.isEmpty())
            out +=
                QStringLiteral(
                    "        %1) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n")
                    .arg(files.join(u'|'));
        if (!directories.isEmpty())
            out +=
                QStringLiteral(
                    "        %1) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n")
                    .arg(directories.join(u'|'));
        if (!free.isEmpty())
            out += QStringLiteral("        %1) return ;; # a value to type, nothing to offer\n").arg(free.join(u'|'));
        out += QStringLiteral("        esac\n");
        if (takesFileArgument(command))
            out += QStringLiteral("        [[ $cur != -* ]] && { compopt -o filenames 2>/dev/null; "
                                  "COMPREPLY=($(compgen -f -- \"$cur\")); return; }\n");
        out += QStringLiteral("        ;;\n");
    }
    out += QStringLiteral("    *) return ;;\n    esac\n");
    out += QStringLiteral("    [[ $cur == -* ]] && COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n}\n");
    out += QStringLiteral("complete -F %1 %2\n").arg(functionName(program), program.name);
    return out.toUtf8();
}

QByteArray zshCompletion(const Program& program)
{
    // In an _arguments spec the description sits in [...] and the value's message between colons.
    const auto description = [](const QString& text) {
        QString d = firstSentence(text);
        d.replace(u'\\', QLatin1String("\\\\"))
            .replace(u'[', QLatin1String("\\["))
            .replace(u']', QLatin1String("\\]"))
            .replace(u':', QLatin1String("\\:"));
        return d;
    };
    QString out =
        QStringLiteral("#compdef %1\n# zsh completion for %1; generated from its command-line definitions.\n\n")
            .arg(program.name);
    out += functionName(program) + QStringLiteral("() {\n    local -a commands\n    commands=(\n");
    for (const Command& command : program.commands)
        out += QStringLiteral("        %1\n")
                   .arg(singleQuotedForPosix(command.name + u':' +
                                             QString(command.summary).replace(u':', QLatin1String("\\:"))));
    out += QStringLiteral("    )\n    if (( CURRENT == 2 )); then\n");
    out += QStringLiteral("        _describe -t commands '%1 command' commands\n        return\n    fi\n")
               .arg(program.name);
    out += QStringLiteral("    local command=$words[2]\n    shift words\n    (( CURRENT-- ))\n    case $command in\n");
    for (const Command& command : program.commands) {
        out += QStringLiteral("    %1)\n        _arguments -s \\\n").arg(command.name);
        out += QStringLiteral("            '--help[%1]' \\\n").arg(firstSentence(commandHelpOption().description()));
        for (const QCommandLineOption& option : command.allOptions()) {
            const ValueKind kind = valueKind(command, option);
            QString action;
            switch (kind) {
            case ValueKind::File:
                action = QStringLiteral("_files");
                break;
            case ValueKind::Directory:
                action = QStringLiteral("_files -/");
                break;
            case ValueKind::Choice:
                action = u'(' + command.choices.value(longestName(option)).join(u' ') + u')';
                break;
            case ValueKind::Free:
                action = QStringLiteral(" ");
                break;
            case ValueKind::None:
                break;
            }
            for (const QString& name : option.names()) {
                QString spec = dashedName(name);
                if (kind != ValueKind::None)
                    spec += name.size() == 1 ? u'+' : u'=';
                spec += u'[' + description(option.description()) + u']';
                if (kind != ValueKind::None)
                    spec += u':' + QString(option.valueName()).replace(u':', QLatin1String("\\:")) + u':' + action;
                out += QStringLiteral("            %1 \\\n").arg(singleQuotedForPosix(spec));
            }
        }
        for (const Argument& argument : command.arguments)
            out += QStringLiteral("            %1 \\\n")
                       .arg(singleQuotedForPosix(QStringLiteral("*:%1:%2").arg(
                           argument.name,
                           argument.name == QLatin1String("file") ? QStringLiteral("_files") : QStringLiteral(" "))));
        out += QStringLiteral("            && return\n        ;;\n");
    }
    out += QStringLiteral("    esac\n    return 1\n}\n\n%1 \"$@\"\n").arg(functionName(program));
    return out.toUtf8();
}

QByteArray fishCompletion(const Program& program)
{
    QString out =
        QStringLiteral("# fish completion for %1; generated from its command-line definitions.\n\n").arg(program.name);
    const QString head = QStringLiteral("complete -c %1").arg(program.name);
    out += head + QStringLiteral(" -f\n");
    out += head + QStringLiteral(" -n __fish_use_subcommand -l help -d 'Show the commands'\n");
    out += head + QStringLiteral(" -n __fish_use_subcommand -l version -d 'Show the version'\n");
    for (const Command& command : program.commands)
        out += head + QStringLiteral(" -n __fish_use_subcommand -a %1 -d %2\n")
                          .arg(command.name, singleQuotedForFish(command.summary));
    for (const Command& command : program.commands) {
        const QString when = QStringLiteral(" -n '__fish_seen_subcommand_from %1'").arg(command.name);
        out += head + when +
               QStringLiteral(" -l help -d %1\n")
                   .arg(singleQuotedForFish(firstSentence(commandHelpOption().description())));
        if (takesFileArgument(command))
            out += head + when + QStringLiteral(" -F\n");
        for (const QCommandLineOption& option : command.allOptions()) {
            QString line = head + when;
            for (const QString& name : option.names())
                line += (name.size() == 1 ? QStringLiteral(" -s ") : QStringLiteral(" -l ")) + name;
            switch (valueKind(command, option)) {
            case ValueKind::File:
                line += QStringLiteral(" -r -F");
                break;
            case ValueKind::Directory:
                line += QStringLiteral(" -x -a '(__fish_complete_directories)'");
                break;
            case ValueKind::Choice:
                line += QStringLiteral(" -x -a %1")
                            .arg(singleQuotedForFish(command.choices.value(longestName(option)).join(u' ')));
                break;
            case ValueKind::Free:
                line += QStringLiteral(" -x");
                break;
            case ValueKind::None:
                break;
            }
            out += line + QStringLiteral(" -d %1\n").arg(singleQuotedForFish(firstSentence(option.description())));
        }
    }
    return out.toUtf8();
}

} // namespace keylens::usage
