import ClarissaCommands

Clarissa.main()
