"""click's own words in Portuguese: "Uso:", "Opções", "Mostra esta mensagem e sai.", "erro: a opção '--x' não
existe." — whatever the terminal's language.

click marks its text for gettext (each of its modules does `from gettext import gettext as _`, and
`ngettext`), which would translate it only from a catalog installed for the user's LANG. install() gives those
modules a `_` and an `ngettext` that look the English text up here first (tests/test_cli_conventions.py checks
that every text click marks is here, and that each one here is still click's)."""
from __future__ import annotations

import gettext
import importlib
import sys

# the modules of click that mark text, loaded by `import click` (click/_winconsole.py: Windows only; testing.py:
# not used by league); and those click loads when it needs them (shell completion, the progress bar's and the
# editor's internals): given league's words if loaded, else by a later install() (league.cli.run)
MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "termui", "types", "utils")
ON_DEMAND = ("shell_completion", "_termui_impl")

TEXT = {
    "Usage:": "Uso:",
    "Options": "Opções",
    "Commands": "Comandos",
    "Positional arguments": "Argumentos",
    "Show this message and exit.": "Mostra esta mensagem e sai.",
    "Show the version and exit.": "Mostra a versão e sai.",
    "%(prog)s, version %(version)s": "%(prog)s, versão %(version)s",
    "required": "obrigatório",
    "default: {default}": "padrão: {default}",
    "env var: {var}": "variável de ambiente: {var}",
    "(dynamic)": "(dinâmico)",
    "deprecated": "obsoleto",
    "Error: {message}": "erro: {message}",
    "Try '{command} {option}' for help.": "Use '{command} {option}' para ver a ajuda.",
    "No such option {name!r}.": "a opção {name!r} não existe.",
    "No such command {name!r}.": "o comando {name!r} não existe.",
    "Missing command.": "falta o comando.",
    "Missing argument": "falta o argumento",
    "Missing option": "falta a opção",
    "Missing parameter": "falta o parâmetro",
    "Missing {param_type}": "falta {param_type}",
    "Missing parameter: {param_name}": "falta o parâmetro: {param_name}",
    "Invalid value: {message}": "valor inválido: {message}",
    "Invalid value for {param_hint}: {message}": "valor inválido para {param_hint}: {message}",
    "Option {name!r} does not take a value.": "a opção {name!r} não recebe valor.",
    "Argument {name!r} takes {nargs} values.": "o argumento {name!r} recebe {nargs} valores.",
    "Invalid start character for option ({option})": "caractere inicial inválido para uma opção ({option})",
    "Value must be an iterable.": "o valor deve ser uma lista.",
    "unknown error": "erro desconhecido",
    "Aborted!": "Interrompido.",
    "Could not open file {filename!r}: {message}": "não foi possível abrir o arquivo {filename!r}: {message}",
    "Choose from:\n\t{choices}": "Escolha entre:\n\t{choices}",
    "Choice({choices})": "Escolha({choices})",
    # click passes "integer" or "float" as number_type: left out of the Portuguese
    "{value!r} is not a valid {number_type}.": "{value!r} não é um número válido.",
    "{value} is not in the range {range}.": "{value} não está no intervalo {range}.",
    "{value!r} is not a valid boolean. Recognized values: {states}":
        "{value!r} não é um valor lógico válido. Valores aceitos: {states}",
    "{value!r} is not a valid UUID.": "{value!r} não é um UUID válido.",
    "file": "arquivo",
    "directory": "pasta",
    "path": "caminho",
    "{name} {filename!r} does not exist.": "{name} {filename!r} não existe.",
    "{name} {filename!r} is a file.": "{name} {filename!r} é um arquivo.",
    "{name} {filename!r} is a directory.": "{name} {filename!r} é uma pasta.",
    "{name} {filename!r} is not readable.": "{name} {filename!r}: sem permissão de leitura.",
    "{name} {filename!r} is not writable.": "{name} {filename!r}: sem permissão de escrita.",
    "{name} {filename!r} is not executable.": "{name} {filename!r}: sem permissão de execução.",
    "Do you want to continue?": "Deseja continuar?",
    "Confirm the action without prompting.": "Confirma a ação sem perguntar.",
    "Repeat for confirmation": "Repita para confirmar",
    "Error: The two entered values do not match.": "erro: os dois valores digitados não são iguais.",
    "Error: invalid input": "erro: entrada inválida",
    "Press any key to continue...": "Pressione uma tecla para continuar…",
    "Unknown color {colour!r}": "Cor desconhecida: {colour!r}",
    "Unknown standard stream '{name}'": "Fluxo padrão desconhecido: '{name}'",
    "d": "d",
    "{editor}: Editing failed": "{editor}: a edição falhou",
    "{editor}: Editing failed: {e}": "{editor}: a edição falhou: {e}",
    "Shell completion is not supported for Bash versions older than 4.4.":
        "O autocompletar não funciona no Bash anterior à versão 4.4.",
    "Couldn't detect Bash version, shell completion is not supported.":
        "Não foi possível saber a versão do Bash: o autocompletar não funciona.",
    "DeprecationWarning: The command {name!r} is deprecated.{extra_message}":
        "aviso: o comando {name!r} está obsoleto.{extra_message}",
    "DeprecationWarning: The {param_type} {name!r} is deprecated.{extra_message}":
        "aviso: {param_type} {name!r} está obsoleto(a).{extra_message}",
    # mistakes in league's own code, never an editor's: in Portuguese all the same
    "Name '{name}' defined twice": "Nome '{name}' definido duas vezes",
    "Boolean option {decl!r} cannot use the same flag for true/false.":
        "A opção booleana {decl!r} não pode usar a mesma chave para verdadeiro e falso.",
    "Could not determine name for option with declarations {decls!r}":
        "Não foi possível determinar o nome da opção declarada como {decls!r}",
    "No options defined but a name was passed ({name}). Did you mean to declare an argument instead? Did you "
    "mean to pass '--{name}'?":
        "Nenhuma opção declarada, mas um nome foi dado ({name}). Queria declarar um argumento? Ou passar "
        "'--{name}'?",
    "Arguments take exactly one parameter declaration, got {length}: {decls}.":
        "Um argumento tem exatamente uma declaração; recebeu {length}: {decls}.",
}

# (singular, plural) → (singular, plural): pt_BR's plural rule, n > 1
PLURAL = {
    ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"):
        ("Você quis dizer {possibility}?", "(Você quis dizer um destes: {possibilities}?)"),
    ("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"):
        ("argumento a mais, inesperado ({args})", "argumentos a mais, inesperados ({args})"),
    ("Takes {nargs} values but 1 was given.", "Takes {nargs} values but {len} were given."):
        ("recebe {nargs} valores, mas foi dado 1.", "recebe {nargs} valores, mas foram dados {len}."),
    ("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."):
        ("a opção {name!r} precisa de um valor.", "a opção {name!r} precisa de {nargs} valores."),
    ("{value!r} is not {choice}.", "{value!r} is not one of {choices}."):
        ("{value!r} não é {choice}.", "{value!r} não é um destes: {choices}."),
    ("{value!r} does not match the format {format}.", "{value!r} does not match the formats {formats}."):
        ("{value!r} não segue o formato {format}.", "{value!r} não segue nenhum dos formatos {formats}."),
    ("{len_type} values are required, but {len_value} was given.",
     "{len_type} values are required, but {len_value} were given."):
        ("São necessários {len_type} valores, mas foi dado {len_value}.",
         "São necessários {len_type} valores, mas foram dados {len_value}."),
}


def translate(message: str) -> str:
    """click's `_`: the Portuguese text, else gettext's (a text of a newer click not yet here)."""
    return TEXT.get(message) or gettext.gettext(message)


def translate_plural(singular: str, plural: str, n: int) -> str:
    """click's `ngettext`."""
    found = PLURAL.get((singular, plural))
    if found is None:
        return gettext.ngettext(singular, plural, n)
    return found[1] if n > 1 else found[0]


def install() -> None:
    """click's modules use translate() and translate_plural() from now on (idempotent)."""
    loaded = [importlib.import_module(f"click.{name}") for name in MODULES]
    loaded += [sys.modules[f"click.{name}"] for name in ON_DEMAND if f"click.{name}" in sys.modules]
    for module in loaded:
        if hasattr(module, "_"):
            module._ = translate
        if hasattr(module, "ngettext"):
            module.ngettext = translate_plural
