net screening
{
 HEADER = 
  {
   ID = screening;
   NAME = "screening";
  };
 CREATION = 
  {
   CREATOR = "hand-written for BN Studio's tests";
  };
 NUMSAMPLES = 1000;
 SCREEN = 
  {
   POSITION = 
    {
     CENTER_X = 0;
     CENTER_Y = 0;
     WIDTH = 76;
     HEIGHT = 36;
    };
   COLOR = 16250597;
  };

 node Sex
  {
   TYPE = CPT;
   HEADER = 
    {
     ID = Sex;
     NAME = "Sex";
    };
   SCREEN = 
    {
     POSITION = 
      {
       CENTER_X = 76;
       CENTER_Y = 38;
       WIDTH = 76;
       HEIGHT = 36;
      };
    };
   PARENTS = ();
   DEFINITION = 
    {
     NAMESTATES = (male, female);
     PROBABILITIES = (0.48, 0.52);
    };
  };

 node Pregnant
  {
   TYPE = CPT;
   HEADER = 
    {
     ID = Pregnant;
     NAME = "Pregnant";
    };
   PARENTS = (Sex);
   DEFINITION = 
    {
     NAMESTATES = (yes, no);
     PROBABILITIES = (0, 1, 0.1, 0.9);
    };
  };

 node Test
  {
   TYPE = CPT;
   HEADER = 
    {
     ID = Test;
     NAME = "Test";
    };
   PARENTS = (Sex, Pregnant);
   DEFINITION = 
    {
     NAMESTATES = (positive, negative);
     PROBABILITIES = (0, 0, 0.02, 0.98, 0.947, 0.053, 0.03, 0.97);
    };
  };
};
