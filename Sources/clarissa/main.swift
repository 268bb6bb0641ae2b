internal import ClarissaCommands

await Clarissa.runFromCommandLine()
